package store_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/internal/benchtest"
	"kubeloop/store"
)

// A watch of the Store that wrote an object gets a copy of it rather than
// a decode (handoff.go), and that copy is what a read from etcd gives; the
// writer's own object stays its own.
func TestWatchTakesTheWrittenObjectAsEtcdHasIt(t *testing.T) {
	f := newFixture(t)
	w, err := f.store.Watch(f.ctx, f.prefix(), store.ListOptions{ResourceVersion: currentRV(t, f)})
	require.NoError(t, err)
	defer w.Stop()

	created, err := f.store.Create(f.ctx, f.key("a"), f.configMap("a", map[string]string{"app": "web"}, map[string]string{"k": "v"}))
	require.NoError(t, err)
	ev := next(t, w)
	require.Equal(t, api.Added, ev.Type)
	stored, err := f.store.Get(f.ctx, f.key("a"), store.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, stored, ev.Object, "the event's object is what etcd holds")
	created.(*api.ConfigMap).Data["k"] = "changed by the writer"
	assert.Equal(t, "v", ev.Object.(*api.ConfigMap).Data["k"], "the watch has a copy")

	_, err = f.store.GuaranteedUpdate(f.ctx, f.key("a"), nil, func(cur api.Object) (api.Object, error) {
		cur.(*api.ConfigMap).Data["k"] = "w"
		return cur, nil
	}, nil)
	require.NoError(t, err)
	ev = next(t, w)
	require.Equal(t, api.Modified, ev.Type)
	stored, err = f.store.Get(f.ctx, f.key("a"), store.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, stored, ev.Object)

	assert.Equal(t, uint64(2), f.store.Stats().WatchDecodesSaved)
	assert.Zero(t, store.PendingHandoffs(f.store), "each object was taken")
}

// Without a watch nothing is kept; a watch that never sees the writes (it
// watches another prefix) holds at most the limit, and a watch of another
// Store decodes as before.
func TestHandoffKeepsNothingNobodyTakes(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	assert.Zero(t, store.PendingHandoffs(f.store), "no watch: nothing kept")

	store.SetHandoffLimit(f.store, 3)
	other, err := f.store.Watch(f.ctx, f.info.KeyPrefix()+"elsewhere/", store.ListOptions{ResourceVersion: currentRV(t, f)})
	require.NoError(t, err)
	for i := range 5 {
		f.create(fmt.Sprintf("b-%d", i), nil)
	}
	assert.Equal(t, 3, store.PendingHandoffs(f.store), "bounded")
	other.Stop()
	assert.Zero(t, store.PendingHandoffs(f.store), "the last watch ended")

	reader := store.New(f.client(), f.info)
	w, err := reader.Watch(f.ctx, f.prefix(), store.ListOptions{ResourceVersion: currentRV(t, f)})
	require.NoError(t, err)
	defer w.Stop()
	f.create("c", nil)
	ev := next(t, w)
	assert.Equal(t, "c", ev.Object.GetObjectMeta().Name)
	assert.Zero(t, reader.Stats().WatchDecodesSaved, "another Store's write is decoded")
}

func currentRV(t *testing.T, f *fixture) string {
	t.Helper()
	rv, err := f.store.CurrentResourceVersion(f.ctx)
	require.NoError(t, err)
	return fmt.Sprint(rv)
}

// BenchmarkWriteAndWatch is one pod create plus its watch event, 16
// writers and one watch on the same Store: the write path and the watch
// cache's read-back of each write, with the handoff (handoff.go,
// "kubeloop") and without it ("decode", the plain path). The two run
// interleaved (internal/benchtest), each with its own Store, watch and
// namespace, and each of an arm's rounds ends when its watch has received
// every event of its writes, so that the decoding is charged to the arm
// that caused it. (It once timed the writers alone, one arm after the
// other: the decode, on the watch's goroutine, was partly outside the
// timing, while the handoff's copy, made by the writer, was inside.) The
// line is kubeloop's; the reference's
// figures have the prefix decode- (decode-objects/s, decode-cpu-us/object).
func BenchmarkWriteAndWatch(b *testing.B) {
	info, ok := api.Builtin().ForResource("", "pods")
	require.True(b, ok)
	b.Run("kubeloop", func(b *testing.B) {
		run := time.Now().UnixNano()
		newArm := func(unit string, limit int) *benchtest.Arm {
			s := store.New(etcd.Client(), info)
			store.SetHandoffLimit(s, limit)
			// Namespaces of equal length: equal keys and values.
			ns := fmt.Sprintf("bench-watch-%s-%d", unit[:1], run)
			forgetAfter(b, info.KeyPrefix()+ns+"/")
			return writeAndWatchArm(b, s, info, ns, unit)
		}
		kubeloop, decode := newArm("k", 0), newArm("decode-", -1)
		kubeloop.Unit = ""
		benchtest.Interleave(b, 16, kubeloop, decode)
		kubeloop.Report(b, "create")
		decode.Report(b, "create")
	})
}

// writeAndWatchArm creates pod p-<i> in ns through s, watched by a watch of
// s on ns; its Settle waits until the watch has received every event.
func writeAndWatchArm(b *testing.B, s *store.Store, info *api.ResourceInfo, ns, unit string) *benchtest.Arm {
	ctx := b.Context()
	rv, err := s.CurrentResourceVersion(ctx)
	require.NoError(b, err)
	w, err := s.Watch(ctx, info.KeyPrefix()+ns+"/", store.ListOptions{ResourceVersion: fmt.Sprint(rv)})
	require.NoError(b, err)
	b.Cleanup(w.Stop)
	var seen atomic.Int64
	received := make(chan struct{}, 1)
	go func() {
		for range w.ResultChan() {
			seen.Add(1)
			select {
			case received <- struct{}{}:
			default:
			}
		}
	}()
	return &benchtest.Arm{
		Unit: unit,
		Op: func(i int) error {
			name := fmt.Sprintf("p-%d", i)
			_, err := s.Create(ctx, info.Key(ns, name), benchPod(ns, name))
			return err
		},
		Settle: func(done int) error {
			deadline := time.NewTimer(time.Minute)
			defer deadline.Stop()
			for seen.Load() < int64(done) {
				select {
				case <-received:
				case <-deadline.C:
					return fmt.Errorf("%s: the watch received %d of %d events in a minute", ns, seen.Load(), done)
				}
			}
			return nil
		},
	}
}

// benchPod is a pod as the ReplicaSet controller creates it.
func benchPod(ns, name string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, UID: "uid-" + name,
			Labels:          map[string]string{"app": "web", "pod-template-hash": "5d4f8c7b9"},
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "rs-uid"}}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.27",
			Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("10m"),
				api.ResourceMemory: api.MustParseQuantity("16Mi")}}}}},
	}
}
