package serializer

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func longPodList(n int) *api.PodList {
	l := &api.PodList{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "PodList"},
		ListMeta: api.ListMeta{ResourceVersion: "42", Continue: "tok<&>"}}
	for i := range n {
		p := api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("p-%d", i), Namespace: "ns", Labels: map[string]string{"app": "<web>"},
				ManagedFields: []api.ManagedFieldsEntry{{Manager: "kubelet", Operation: "Update", FieldsType: "FieldsV1",
					FieldsV1: &api.FieldsV1{Raw: []byte(`{"f:status":{"f:phase":{}}}`)}}}}}
		p.Spec.Containers = []api.Container{{Name: "c", Image: "img&1"}}
		p.Status.Phase = api.PodRunning
		l.Items = append(l.Items, p)
	}
	return l
}

func TestLongListItemByItemIsByteForByteMarshal(t *testing.T) {
	for _, n := range []int{itemByItemMinItems, itemByItemMinItems + 37} {
		l := longPodList(n)
		want, err := api.Marshal(l)
		require.NoError(t, err)
		got, ok, err := encodeListItemByItem(l)
		require.NoError(t, err)
		require.True(t, ok, "an api.List of %d items is split", n)
		require.Equal(t, string(want), string(got))
		viaEncoder, err := jsonEncoder{}.Encode(l)
		require.NoError(t, err)
		require.Equal(t, string(want), string(viaEncoder))
	}
}

func TestShortListTakesThePlainPath(t *testing.T) {
	_, ok, err := encodeListItemByItem(longPodList(3))
	require.NoError(t, err)
	require.False(t, ok)
}
