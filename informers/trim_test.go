package informers

import (
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestTrimManagedFieldsDropsThemAndIsIdempotent(t *testing.T) {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Labels: map[string]string{"app": "web"},
		ManagedFields: []api.ManagedFieldsEntry{{Manager: "kubelet", Operation: api.ManagedFieldsOperationUpdate, Subresource: "status"}}}}
	out, err := TrimManagedFields(pod)
	require.NoError(t, err)
	require.Same(t, pod, out, "trimmed in place, as Kubernetes' transform does")
	require.Nil(t, pod.ManagedFields, "nil, not empty: an update sent back must keep the server's, not reset them")
	require.Equal(t, "web", pod.Labels["app"], "nothing else changes")

	again, err := TrimManagedFields(out)
	require.NoError(t, err)
	require.Equal(t, pod, again, "a relist passes cached objects through again")

	notAnObject := "tombstone key"
	kept, err := TrimManagedFields(notAnObject)
	require.NoError(t, err)
	require.Equal(t, notAnObject, kept)
}
