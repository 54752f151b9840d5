//go:build exercise || solution

package fifo

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/cache"
	"kubeloop/deltafifo"
)

// cm is a ConfigMap in namespace "ns"; its resourceVersion tells two
// states of one object apart.
func cm(name, rv string) *api.ConfigMap {
	return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv}}
}

// known is the consumer's cache, kubeloop's real informer indexer.
func known(objs ...*api.ConfigMap) cache.Indexer {
	idx := cache.NewIndexer(deltafifo.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{})
	for _, o := range objs {
		if err := idx.Add(o); err != nil {
			panic(err)
		}
	}
	return idx
}

// shape describes deltas as "Type name@rv", a tombstone as
// "Deleted tombstone(name@rv)", so a failure shows the whole history.
func shape(d Deltas) []string {
	var out []string
	for _, delta := range d {
		out = append(out, fmt.Sprintf("%s %s", delta.Type, describe(delta.Object)))
	}
	return out
}

func describe(obj any) string {
	switch o := obj.(type) {
	case DeletedFinalStateUnknown:
		return "tombstone(" + describe(o.Obj) + ")"
	case *api.ConfigMap:
		return o.Name + "@" + o.ResourceVersion
	case nil:
		return "nil"
	default:
		return fmt.Sprintf("%T", obj)
	}
}

func deltasOf(t *testing.T, f *DeltaFIFO, key string) []string {
	t.Helper()
	d, ok := f.GetByKey(key)
	require.True(t, ok, "%s is not queued; queued: %v", key, f.ListKeys())
	return shape(d)
}

func TestTwoDeletionsInARowAreOneDeletion(t *testing.T) {
	f := New(Options{})
	require.NoError(t, f.Add(cm("a", "1")))
	require.NoError(t, f.Delete(cm("a", "1")))
	require.NoError(t, f.Delete(cm("a", "1")))
	assert.Equal(t, []string{"Added a@1", "Deleted a@1"}, deltasOf(t, f, "ns/a"))
}

// A relist tombstone and the watch event of the same deletion can both
// arrive. Whichever comes first, one Deleted is left, and it carries the
// real final state rather than the guessed one.
func TestARealFinalStateBeatsATombstone(t *testing.T) {
	t.Run("tombstone first", func(t *testing.T) {
		f := New(Options{KnownObjects: known(cm("a", "1"))})
		require.NoError(t, f.Replace(nil, "10"))
		require.Equal(t, []string{"Deleted tombstone(a@1)"}, deltasOf(t, f, "ns/a"), "the relist tombstones a")
		require.NoError(t, f.Delete(cm("a", "2")))
		assert.Equal(t, []string{"Deleted a@2"}, deltasOf(t, f, "ns/a"), "the real deletion replaces the tombstone")
	})
	t.Run("real deletion first", func(t *testing.T) {
		f := New(Options{KnownObjects: known(cm("a", "1"))})
		require.NoError(t, f.Delete(cm("a", "2")))
		require.NoError(t, f.Replace(nil, "10"))
		assert.Equal(t, []string{"Deleted a@2"}, deltasOf(t, f, "ns/a"), "the tombstone adds nothing to a real deletion")
	})
}

// Only deletions are collapsed: a consumer must see every update.
func TestUpdatesAndSyncsAreNeverCollapsed(t *testing.T) {
	f := New(Options{})
	require.NoError(t, f.Add(cm("a", "1")))
	require.NoError(t, f.Update(cm("a", "2")))
	require.NoError(t, f.Update(cm("a", "3")))
	require.NoError(t, f.Replace([]any{cm("a", "3")}, "3"))
	require.NoError(t, f.Replace([]any{cm("a", "3")}, "3"))
	require.NoError(t, f.Delete(cm("a", "4")))
	assert.Equal(t, []string{"Added a@1", "Updated a@2", "Updated a@3", "Sync a@3", "Sync a@3", "Deleted a@4"}, deltasOf(t, f, "ns/a"))
}

func TestReplaceGivesEveryListedObjectASyncDelta(t *testing.T) {
	f := New(Options{})
	require.NoError(t, f.Replace([]any{cm("a", "1"), cm("b", "2")}, "2"))
	assert.Equal(t, []string{"ns/a", "ns/b"}, f.ListKeys(), "listed objects are queued in list order")
	assert.Equal(t, []string{"Sync a@1"}, deltasOf(t, f, "ns/a"))
	assert.Equal(t, []string{"Sync b@2"}, deltasOf(t, f, "ns/b"))

	r := New(Options{EmitDeltaTypeReplaced: true})
	require.NoError(t, r.Replace([]any{cm("a", "1")}, "1"))
	assert.Equal(t, []string{"Replaced a@1"}, deltasOf(t, r, "ns/a"), "with EmitDeltaTypeReplaced the delta is Replaced")
}

// The consumer holds b, the relist does not: b was deleted while the watch
// was down. Nobody saw the deletion, so its final state is unknown; the
// best guess is the copy the consumer holds.
func TestReplaceTombstonesAKnownObjectMissingFromTheList(t *testing.T) {
	f := New(Options{KnownObjects: known(cm("a", "1"), cm("b", "2"))})
	require.NoError(t, f.Replace([]any{cm("a", "1")}, "5"))
	assert.Equal(t, []string{"Sync a@1"}, deltasOf(t, f, "ns/a"))
	assert.Equal(t, []string{"Deleted tombstone(b@2)"}, deltasOf(t, f, "ns/b"))

	d, _ := f.GetByKey("ns/b")
	tomb, ok := d.Newest().Object.(DeletedFinalStateUnknown)
	require.True(t, ok, "the deletion carries a DeletedFinalStateUnknown, got %T", d.Newest().Object)
	assert.Equal(t, "ns/b", tomb.Key)
	key, err := deltafifo.DeletionHandlingMetaNamespaceKeyFunc(tomb)
	require.NoError(t, err)
	assert.Equal(t, "ns/b", key, "delete handlers key tombstones by their Key")
}

// b was added and updated but not yet popped (so the consumer does not
// know it), and the relist no longer has it: the newest queued state is
// the last one anybody saw.
func TestReplaceTombstonesAQueuedObjectWithItsNewestState(t *testing.T) {
	f := New(Options{KnownObjects: known()})
	require.NoError(t, f.Add(cm("b", "1")))
	require.NoError(t, f.Update(cm("b", "2")))
	require.NoError(t, f.Replace(nil, "5"))
	assert.Equal(t, []string{"Added b@1", "Updated b@2", "Deleted tombstone(b@2)"}, deltasOf(t, f, "ns/b"))

	bare := New(Options{}) // no known objects at all: the queue alone
	require.NoError(t, bare.Add(cm("c", "1")))
	require.NoError(t, bare.Replace(nil, "5"))
	assert.Equal(t, []string{"Added c@1", "Deleted tombstone(c@1)"}, deltasOf(t, bare, "ns/c"))
}

// Two relists in a row without b: still one deletion, and its object is
// b, never a tombstone wrapped in a tombstone.
func TestReplaceNeverPutsATombstoneInATombstone(t *testing.T) {
	f := New(Options{KnownObjects: known(cm("b", "2"))})
	require.NoError(t, f.Replace(nil, "5"))
	require.NoError(t, f.Replace(nil, "6"))
	assert.Equal(t, []string{"Deleted tombstone(b@2)"}, deltasOf(t, f, "ns/b"))
	d, _ := f.GetByKey("ns/b")
	tomb := d.Newest().Object.(DeletedFinalStateUnknown)
	_, nested := tomb.Obj.(DeletedFinalStateUnknown)
	assert.False(t, nested, "the tombstone's Obj is itself a tombstone")
}

// WaitForCacheSync waits for HasSynced: it turns true once everything the
// first relist queued, objects and tombstones, has been popped.
func TestTheFirstReplaceDecidesWhenTheQueueHasSynced(t *testing.T) {
	f := New(Options{KnownObjects: known(cm("gone", "1"))})
	assert.False(t, f.HasSynced(), "nothing listed yet")
	require.NoError(t, f.Replace([]any{cm("a", "2"), cm("b", "3")}, "3"))
	require.Equal(t, []string{"ns/a", "ns/b", "ns/gone"}, f.ListKeys(), "the relist queues a, b and the tombstone of gone")
	for i := range 3 {
		assert.False(t, f.HasSynced(), "after %d of 3 pops (a, b and the tombstone of gone)", i)
		_, err := f.Pop(func(Deltas, bool) error { return nil })
		require.NoError(t, err)
	}
	assert.True(t, f.HasSynced(), "everything the first Replace queued has been popped")

	// A later relist does not make the queue unsynced again.
	require.NoError(t, f.Replace([]any{cm("a", "4")}, "4"))
	assert.True(t, f.HasSynced())
}
