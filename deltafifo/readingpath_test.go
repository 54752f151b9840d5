package deltafifo_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/deltafifo"
)

// Reading path, step 5 (docs/reading-path.md): the DeltaFIFO between the
// reflector and the informer. Changes are queued per key, in order: two
// writes to default/web before anyone pops are one queue entry holding both
// deltas, oldest first, and keys come out in the order they first arrived.
// Pop hands one key's deltas to the informer (here, the process function)
// while holding the key, so handlers see each object's changes in order.
// Break in DeltaFIFO.queueActionLocked, then in DeltaFIFO.Pop.
func TestReadingPathStep5DeltaFIFOQueuesDeltasPerKey(t *testing.T) {
	f := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{})
	rs := func(name, rv string) *api.ReplicaSet {
		return &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, ResourceVersion: rv}}
	}
	require.NoError(t, f.Add(rs("web", "10")))
	require.NoError(t, f.Add(rs("db", "11")))
	require.NoError(t, f.Update(rs("web", "12"))) // spec.replicas = 5
	assert.Equal(t, []string{"default/web", "default/db"}, f.ListKeys(), "one entry per key, in first-arrival order")

	var popped []string
	for range 2 {
		_, err := f.Pop(func(obj any, _ bool) error {
			for _, d := range obj.(deltafifo.Deltas) {
				o := d.Object.(*api.ReplicaSet)
				popped = append(popped, string(d.Type)+" "+o.Name+"@"+o.ResourceVersion)
			}
			return nil
		})
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"Added web@10", "Updated web@12", "Added db@11"}, popped)
	assert.Empty(t, f.ListKeys())
}
