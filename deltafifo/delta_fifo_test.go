package deltafifo

import (
	"errors"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func newFIFO(known KeyListerGetter) *DeltaFIFO {
	return NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known})
}

func TestDeletionHandlingKeyFuncUsesTombstoneKey(t *testing.T) {
	key, err := DeletionHandlingMetaNamespaceKeyFunc(DeletedFinalStateUnknown{Key: "ns/gone"})
	require.NoError(t, err)
	assert.Equal(t, "ns/gone", key)

	key, err = DeletionHandlingMetaNamespaceKeyFunc(cm("ns", "a", "1"))
	require.NoError(t, err)
	assert.Equal(t, "ns/a", key)

	key, err = DeletionHandlingMetaNamespaceKeyFunc(cm("", "cluster-wide", "1"))
	require.NoError(t, err)
	assert.Equal(t, "cluster-wide", key)

	_, err = DeletionHandlingMetaNamespaceKeyFunc(42)
	assert.Error(t, err)
}

func TestKeyOfAcceptsDeltasAndTombstones(t *testing.T) {
	f := newFIFO(nil)
	key, err := f.KeyOf(Deltas{{Added, cm("ns", "old", "1")}, {Updated, cm("ns", "new", "2")}})
	require.NoError(t, err)
	assert.Equal(t, "ns/new", key, "Deltas are keyed by their newest object")

	key, err = f.KeyOf(DeletedFinalStateUnknown{Key: "ns/t"})
	require.NoError(t, err)
	assert.Equal(t, "ns/t", key)

	_, err = f.KeyOf(Deltas{})
	assert.Error(t, err)
	assert.Error(t, f.Add(3.14), "an object without meta has no key")
}

func TestDeltaFIFOKeepsFirstArrivalOrder(t *testing.T) {
	f := newFIFO(nil)
	require.NoError(t, f.Add(cm("ns", "a", "1")))
	require.NoError(t, f.Add(cm("ns", "b", "1")))
	require.NoError(t, f.Update(cm("ns", "a", "2")))
	require.NoError(t, f.Add(cm("ns", "c", "1")))
	require.NoError(t, f.Update(cm("ns", "b", "2")))

	assert.Equal(t, []string{"ns/a", "ns/b", "ns/c"}, f.ListKeys(), "a queued key keeps its place")
	assert.Equal(t, []string{"Added 1", "Updated 2"}, shape(popDeltas(t, f)))
	assert.Equal(t, []string{"Added 1", "Updated 2"}, shape(popDeltas(t, f)))
	assert.Equal(t, []string{"Added 1"}, shape(popDeltas(t, f)))

	// A popped key that comes back goes to the back.
	require.NoError(t, f.Update(cm("ns", "a", "3")))
	require.NoError(t, f.Update(cm("ns", "z", "1")))
	require.NoError(t, f.Update(cm("ns", "a", "4")))
	assert.Equal(t, []string{"ns/a", "ns/z"}, f.ListKeys())
}

func TestDedupKeepsOlderOfTwoDeletes(t *testing.T) {
	f := newFIFO(nil)
	require.NoError(t, f.Add(cm("ns", "a", "1")))
	require.NoError(t, f.Delete(cm("ns", "a", "2")))
	require.NoError(t, f.Delete(cm("ns", "a", "3")))
	assert.Equal(t, []string{"Added 1", "Deleted 2"}, shape(popDeltas(t, f)))
}

func TestDedupPrefersNewerWhenOlderIsTombstone(t *testing.T) {
	f := newFIFO(nil)
	require.NoError(t, f.Add(cm("ns", "a", "1")))
	require.NoError(t, f.Replace(nil, "10")) // tombstones ns/a
	require.NoError(t, f.Delete(cm("ns", "a", "2")))
	assert.Equal(t, []string{"Added 1", "Deleted 2"}, shape(popDeltas(t, f)),
		"a real final state replaces a guessed one")

	// A tombstone arriving after a real delete does not replace it.
	require.NoError(t, f.Add(cm("ns", "b", "1")))
	require.NoError(t, f.Delete(cm("ns", "b", "2")))
	require.NoError(t, f.Replace(nil, "11"))
	assert.Equal(t, []string{"Added 1", "Deleted 2"}, shape(popDeltas(t, f)))
}

func TestDedupCollapsesNothingButDeletes(t *testing.T) {
	f := newFIFO(nil)
	require.NoError(t, f.Add(cm("ns", "a", "1")))
	require.NoError(t, f.Update(cm("ns", "a", "1")))
	require.NoError(t, f.Update(cm("ns", "a", "1")))
	require.NoError(t, f.Delete(cm("ns", "a", "2")))
	require.NoError(t, f.Add(cm("ns", "a", "3")))
	require.NoError(t, f.Delete(cm("ns", "a", "4")))
	assert.Equal(t, []string{"Added 1", "Updated 1", "Updated 1", "Deleted 2", "Added 3", "Deleted 4"},
		shape(popDeltas(t, f)))
}

func TestDeleteIgnoredWhenUnknownWithoutKnownObjects(t *testing.T) {
	f := newFIFO(nil)
	require.NoError(t, f.Delete(cm("ns", "never-seen", "1")))
	assert.Empty(t, f.ListKeys())

	require.NoError(t, f.Add(cm("ns", "queued", "1")))
	require.NoError(t, f.Delete(cm("ns", "queued", "2")))
	assert.Equal(t, []string{"Added 1", "Deleted 2"}, shape(popDeltas(t, f)))

	// Once popped, the key is unknown again: without knownObjects the queue
	// cannot tell a real delete from a repeated one.
	require.NoError(t, f.Delete(cm("ns", "queued", "3")))
	assert.Empty(t, f.ListKeys())
}

func TestDeleteIgnoredOnlyIfAbsentFromKnownAndQueue(t *testing.T) {
	known := newKnownIndex(cm("ns", "known", "1"))
	f := newFIFO(known)

	require.NoError(t, f.Delete(cm("ns", "nowhere", "1")))
	assert.Empty(t, f.ListKeys(), "absent from both: ignored")

	require.NoError(t, f.Delete(cm("ns", "known", "2")))
	require.NoError(t, f.Add(cm("ns", "queued", "1")))
	require.NoError(t, f.Delete(cm("ns", "queued", "2")))
	assert.Equal(t, []string{"ns/known", "ns/queued"}, f.ListKeys())
	assert.Equal(t, []string{"Deleted 2"}, shape(popDeltas(t, f)), "known only: recorded")
	assert.Equal(t, []string{"Added 1", "Deleted 2"}, shape(popDeltas(t, f)), "queued only: recorded")
}

func TestReplaceEmitsSyncAndTombstones(t *testing.T) {
	known := newKnownIndex(cm("ns", "kept", "1"), cm("ns", "gone-known", "1"), cm("ns", "gone-both", "1"))
	f := newFIFO(known)
	require.NoError(t, f.Update(cm("ns", "gone-queued", "5")))
	require.NoError(t, f.Update(cm("ns", "gone-both", "6")))
	require.NoError(t, f.Update(cm("ns", "kept", "2")))

	require.NoError(t, f.Replace([]any{cm("ns", "kept", "3"), cm("ns", "new", "1")}, "100"))

	assert.Equal(t, "100", f.LastSyncResourceVersion())
	want := map[string][]string{
		"ns/gone-queued": {"Updated 5", "Deleted tomb:5"},
		"ns/gone-both":   {"Updated 6", "Deleted tomb:6"}, // newest queued beats known
		"ns/kept":        {"Updated 2", "Sync 3"},
		"ns/new":         {"Sync 1"},
		"ns/gone-known":  {"Deleted tomb:1"}, // not queued: known object
	}
	got := map[string][]string{}
	for range want {
		d := popDeltas(t, f)
		key, err := f.KeyOf(d)
		require.NoError(t, err)
		got[key] = shape(d)
	}
	assert.Equal(t, want, got)
	assert.Empty(t, f.ListKeys())
}

func TestReplaceUnwrapsQueuedTombstone(t *testing.T) {
	f := newFIFO(nil)
	require.NoError(t, f.Add(cm("ns", "a", "1")))
	require.NoError(t, f.Replace(nil, "1"))
	require.NoError(t, f.Replace(nil, "2"))
	d := popDeltas(t, f)
	assert.Equal(t, []string{"Added 1", "Deleted tomb:1"}, shape(d),
		"the second tombstone collapses into the first and never nests")
	tomb := d.Newest().Object.(DeletedFinalStateUnknown)
	assert.Equal(t, "ns/a", tomb.Key)
}

func TestReplaceEmitsReplacedWhenAsked(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
	require.NoError(t, f.Replace([]any{cm("ns", "a", "1")}, "1"))
	assert.Equal(t, []string{"Replaced 1"}, shape(popDeltas(t, f)))
}

func TestResyncOnlyForKeysWithoutQueuedDeltas(t *testing.T) {
	known := newKnownIndex(cm("ns", "idle", "1"), cm("ns", "busy", "1"))
	f := newFIFO(known)
	require.NoError(t, f.Update(cm("ns", "busy", "2")))

	require.NoError(t, f.Resync())
	assert.Equal(t, []string{"ns/busy", "ns/idle"}, f.ListKeys())
	assert.Equal(t, []string{"Updated 2"}, shape(popDeltas(t, f)), "no stale Sync after a queued update")
	assert.Equal(t, []string{"Sync 1"}, shape(popDeltas(t, f)))

	plain := newFIFO(nil)
	require.NoError(t, plain.Resync())
	assert.Empty(t, plain.ListKeys(), "without known objects there is nothing to resync")
}

func TestHasSyncedAfterInitialItemsPopped(t *testing.T) {
	known := newKnownIndex(cm("ns", "gone", "1"))
	f := newFIFO(known)
	assert.False(t, f.HasSynced(), "nothing listed yet")

	require.NoError(t, f.Replace([]any{cm("ns", "a", "1"), cm("ns", "b", "1")}, "1"))
	require.NoError(t, f.Add(cm("ns", "later", "1")))
	for range 3 { // a, b and the tombstone for gone
		assert.False(t, f.HasSynced())
		popDeltas(t, f)
	}
	assert.True(t, f.HasSynced(), "later is not part of the initial list")
	require.NoError(t, f.Replace([]any{cm("ns", "x", "1")}, "2"))
	assert.True(t, f.HasSynced(), "only the first Replace counts")
}

func TestHasSyncedAtOnceWhenAddComesBeforeReplace(t *testing.T) {
	for name, op := range map[string]func(f *DeltaFIFO) error{
		"Add":    func(f *DeltaFIFO) error { return f.Add(cm("ns", "a", "1")) },
		"Update": func(f *DeltaFIFO) error { return f.Update(cm("ns", "a", "1")) },
		"Delete": func(f *DeltaFIFO) error { return f.Delete(cm("ns", "a", "1")) },
	} {
		t.Run(name, func(t *testing.T) {
			f := newFIFO(nil)
			require.False(t, f.HasSynced())
			require.NoError(t, op(f))
			assert.True(t, f.HasSynced())
		})
	}
}

func TestEmptyFirstReplaceSyncsAtOnce(t *testing.T) {
	f := newFIFO(nil)
	require.False(t, f.HasSynced())
	require.NoError(t, f.Replace(nil, "1"))
	assert.True(t, f.HasSynced())
}

func TestIsInInitialList(t *testing.T) {
	f := newFIFO(nil)
	require.NoError(t, f.Replace([]any{cm("ns", "a", "1"), cm("ns", "b", "1")}, "1"))
	require.NoError(t, f.Add(cm("ns", "c", "1")))
	var got []bool
	for range 3 {
		_, err := f.Pop(func(_ any, initial bool) error {
			got = append(got, initial)
			return nil
		})
		require.NoError(t, err)
	}
	assert.Equal(t, []bool{true, true, false}, got)
}

func TestPopBlocksUntilAdd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFIFO(nil)
		popped := make(chan Deltas, 1)
		go func() {
			obj, err := f.Pop(func(any, bool) error { return nil })
			assert.NoError(t, err)
			popped <- obj.(Deltas)
		}()
		synctest.Wait() // the popper is now parked in cond.Wait
		select {
		case d := <-popped:
			t.Fatalf("Pop returned %v from an empty queue", d)
		default:
		}
		require.NoError(t, f.Add(cm("ns", "a", "1")))
		assert.Equal(t, []string{"Added 1"}, shape(<-popped))
	})
}

func TestPopReturnsErrFIFOClosedWhenClosedAndEmpty(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFIFO(nil)
		errs := make(chan error, 2)
		for range 2 {
			go func() {
				_, err := f.Pop(func(any, bool) error { return nil })
				errs <- err
			}()
		}
		synctest.Wait()
		assert.False(t, f.IsClosed())
		f.Close()
		assert.True(t, f.IsClosed())
		assert.ErrorIs(t, <-errs, ErrFIFOClosed, "Close wakes every waiter")
		assert.ErrorIs(t, <-errs, ErrFIFOClosed)

		_, err := f.Pop(nil)
		assert.ErrorIs(t, err, ErrFIFOClosed)
	})
}

func TestCloseStillDrainsQueued(t *testing.T) {
	f := newFIFO(nil)
	require.NoError(t, f.Add(cm("ns", "a", "1")))
	require.NoError(t, f.Add(cm("ns", "b", "1")))
	f.Close()
	assert.Equal(t, []string{"Added 1"}, shape(popDeltas(t, f)))
	assert.Equal(t, []string{"Added 1"}, shape(popDeltas(t, f)))
	_, err := f.Pop(func(any, bool) error { return nil })
	assert.ErrorIs(t, err, ErrFIFOClosed)
}

func TestPopErrorDoesNotRequeue(t *testing.T) {
	f := newFIFO(nil)
	require.NoError(t, f.Add(cm("ns", "a", "1")))
	boom := errors.New("handler failed")
	obj, err := f.Pop(func(any, bool) error { return boom })
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, []string{"Added 1"}, shape(obj.(Deltas)), "the item comes back with the error")
	assert.Empty(t, f.ListKeys())
	_, exists, err := f.GetByKey("ns/a")
	require.NoError(t, err)
	assert.False(t, exists)
}

func TestPopProcessRunsUnderTheQueueLock(t *testing.T) {
	f := newFIFO(nil)
	require.NoError(t, f.Add(cm("ns", "a", "1")))
	_, err := f.Pop(func(any, bool) error {
		assert.False(t, f.lock.TryLock(), "process must run while Pop holds the lock")
		return nil
	})
	require.NoError(t, err)
}

func TestTransformerSkipsTombstonesAndResync(t *testing.T) {
	known := newKnownIndex(cm("ns", "k", "1"))
	var seen []string
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{
		KnownObjects: known,
		Transformer: func(obj any) (any, error) {
			c := obj.(*api.ConfigMap).DeepCopy()
			seen = append(seen, c.Name)
			c.ResourceVersion += "t"
			return c, nil
		},
	})
	require.NoError(t, f.Add(cm("ns", "a", "1")))
	require.NoError(t, f.Delete(cm("ns", "a", "2")))
	require.NoError(t, f.Replace([]any{cm("ns", "b", "1")}, "1")) // tombstones ns/k
	assert.Equal(t, []string{"Added 1t", "Deleted 2t"}, shape(popDeltas(t, f)))
	assert.Equal(t, []string{"Sync 1t"}, shape(popDeltas(t, f)))
	assert.Equal(t, []string{"Deleted tomb:1"}, shape(popDeltas(t, f)), "tombstones are not transformed")

	require.NoError(t, f.Resync())
	assert.Equal(t, []string{"Sync 1"}, shape(popDeltas(t, f)), "known objects were transformed once already")
	assert.Equal(t, []string{"a", "a", "b"}, seen)

	failing := NewDeltaFIFOWithOptions(DeltaFIFOOptions{
		Transformer: func(any) (any, error) { return nil, errors.New("nope") },
	})
	assert.Error(t, failing.Add(cm("ns", "a", "1")))
	assert.Empty(t, failing.ListKeys())
}

func TestListAndGetShowQueuedDeltasAsCopies(t *testing.T) {
	f := newFIFO(nil)
	require.NoError(t, f.Add(cm("ns", "a", "1")))
	require.NoError(t, f.Add(cm("ns", "b", "1")))
	require.NoError(t, f.Update(cm("ns", "a", "2")))

	list := f.List()
	require.Len(t, list, 2)
	assert.Equal(t, "2", list[0].(*api.ConfigMap).ResourceVersion, "List shows each key's newest object")

	got, exists, err := f.Get(cm("ns", "a", "ignored"))
	require.NoError(t, err)
	require.True(t, exists)
	require.NoError(t, f.Update(cm("ns", "a", "3")))
	assert.Equal(t, []string{"Added 1", "Updated 2"}, shape(got.(Deltas)), "a later append does not show through")

	_, exists, err = f.GetByKey("ns/missing")
	require.NoError(t, err)
	assert.False(t, exists)
}

func TestQueueSpaceIsReusedWhenItNeverEmpties(t *testing.T) {
	f := newFIFO(nil)
	require.NoError(t, f.Add(cm("ns", "first", "1")))
	for i := range 10_000 {
		require.NoError(t, f.Add(cm("ns", fmt.Sprintf("k%d", i), "1")))
		popDeltas(t, f)
	}
	assert.Len(t, f.ListKeys(), 1)
	assert.LessOrEqual(t, cap(f.queue.buf), 256, "popped space must be reclaimed")
}
