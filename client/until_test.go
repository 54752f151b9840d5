package client_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

func TestUntilSeesEachChangeUntilTheObjectIsGone(t *testing.T) {
	c, ns := startServer(t)
	cms := client.For[*api.ConfigMap](c).Namespace(ns)
	_, err := cms.Create(ctx(t), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "u"}, Data: map[string]string{"n": "0"}}, client.CreateOptions{})
	require.NoError(t, err)

	// done writes the next change itself, so each call after the first can
	// only come from Until seeing that write: no sleep, no race.
	var seen []string
	err = cms.Dynamic().Until(ctx(t), "u", func(obj api.Object) bool {
		if obj == nil {
			seen = append(seen, "gone")
			return true
		}
		n := obj.(*api.ConfigMap).Data["n"]
		seen = append(seen, n)
		if n == "0" {
			_, err := cms.Patch(ctx(t), "u", client.MergePatchType, []byte(`{"data":{"n":"1"}}`), client.PatchOptions{})
			require.NoError(t, err)
		} else {
			require.NoError(t, cms.Delete(ctx(t), "u", api.DeleteOptions{}))
		}
		return false
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"0", "1", "gone"}, seen)
}

func TestUntilReturnsAtOnceWhenDoneAndStopsWithItsContext(t *testing.T) {
	c, ns := startServer(t)
	cms := client.For[*api.ConfigMap](c).Namespace(ns).Dynamic()
	calls := 0
	require.NoError(t, cms.Until(ctx(t), "missing", func(obj api.Object) bool { calls++; return obj == nil }))
	assert.Equal(t, 1, calls, "done held for the first read: no watch")

	_, err := client.For[*api.ConfigMap](c).Namespace(ns).Create(ctx(t), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "stays"}}, client.CreateOptions{})
	require.NoError(t, err)
	stop, cancel := context.WithCancel(ctx(t))
	err = cms.Until(stop, "stays", func(api.Object) bool { cancel(); return false })
	assert.ErrorIs(t, err, context.Canceled, "a wait that never ends ends with its context")
}

func TestUntilWaitsForAnObjectToAppear(t *testing.T) {
	c, ns := startServer(t)
	cms := client.For[*api.ConfigMap](c).Namespace(ns)
	var seen []string
	err := cms.Dynamic().Until(ctx(t), "later", func(obj api.Object) bool {
		if obj == nil {
			seen = append(seen, "missing")
			_, err := cms.Create(ctx(t), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "later"}}, client.CreateOptions{})
			require.NoError(t, err)
			return false
		}
		seen = append(seen, obj.GetObjectMeta().Name)
		return true
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"missing", "later"}, seen)
}
