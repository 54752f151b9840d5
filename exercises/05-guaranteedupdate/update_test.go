//go:build exercise || solution

package guaranteedupdate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
	"kubeloop/store"
	"kubeloop/store/storetest"
)

// The grader runs your GuaranteedUpdate against a real embedded etcd, one
// for the whole binary, next to kubeloop's own store.Store on the same
// keys: objects are created and read back by store.Store, and the other
// writer in the conflict tests is store.Store too. Your writes must be
// indistinguishable from the apiserver's.

var etcd *store.Embedded

func TestMain(m *testing.M) {
	storetest.Main(m, func(e *store.Embedded) { etcd = e })
}

type fixture struct {
	t      *testing.T
	ctx    context.Context
	ns     string
	info   *api.ResourceInfo
	yours  *Store       // the student's
	theirs *store.Store // kubeloop's, on the same etcd
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	info, ok := api.ForType[*api.ConfigMap](api.Builtin())
	require.True(t, ok)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	ns := strings.ToLower(strings.TrimPrefix(t.Name(), "Test"))
	if len(ns) > 50 {
		ns = ns[:50]
	}
	return &fixture{t: t, ctx: ctx, ns: ns, info: info,
		yours: New(etcd.Client(), info), theirs: store.New(etcd.Client(), info)}
}

func (f *fixture) key(name string) string { return f.info.Key(f.ns, name) }

// create stores a ConfigMap with data through kubeloop's store.
func (f *fixture) create(name string, data map[string]string) *api.ConfigMap {
	f.t.Helper()
	out, err := f.theirs.Create(f.ctx, f.key(name), &api.ConfigMap{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: f.ns, UID: "uid-" + name},
		Data:       data,
	})
	require.NoError(f.t, err)
	return out.(*api.ConfigMap)
}

func (f *fixture) get(name string) *api.ConfigMap {
	f.t.Helper()
	out, err := f.theirs.Get(f.ctx, f.key(name), store.GetOptions{})
	require.NoError(f.t, err)
	return out.(*api.ConfigMap)
}

// revision is etcd's current revision: every write moves it by one.
func (f *fixture) revision() int64 {
	f.t.Helper()
	resp, err := etcd.Client().Get(f.ctx, "/registry/", clientv3.WithCountOnly())
	require.NoError(f.t, err)
	return resp.Header.Revision
}

// update calls your GuaranteedUpdate and fails the test at once if it is
// the stub.
func (f *fixture) update(name string, tryUpdate UpdateFunc) (api.Object, error) {
	f.t.Helper()
	out, err := f.yours.GuaranteedUpdate(f.ctx, f.key(name), tryUpdate)
	if errors.Is(err, ErrNotImplemented) {
		f.t.Fatalf("GuaranteedUpdate is not written yet: the stub in update.go returns ErrNotImplemented")
	}
	return out, err
}

func setData(k, v string) UpdateFunc {
	return func(obj api.Object) (api.Object, error) {
		cm := obj.(*api.ConfigMap)
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data[k] = v
		return cm, nil
	}
}

func TestUpdateWritesTheChangeAndReturnsTheNewResourceVersion(t *testing.T) {
	f := newFixture(t)
	before := f.create("cm", map[string]string{"a": "1"})

	out, err := f.update("cm", setData("b", "2"))
	require.NoError(t, err)
	cm, ok := out.(*api.ConfigMap)
	require.True(t, ok, "GuaranteedUpdate returned %T, want the updated *api.ConfigMap", out)
	assert.Equal(t, map[string]string{"a": "1", "b": "2"}, cm.Data)

	raw, err := etcd.Client().Get(f.ctx, f.key("cm"))
	require.NoError(t, err)
	require.Len(t, raw.Kvs, 1)
	assert.Equal(t, strconv.FormatInt(raw.Kvs[0].ModRevision, 10), cm.ResourceVersion,
		"the returned resourceVersion is the revision of the write")
	assert.NotEqual(t, before.ResourceVersion, cm.ResourceVersion)

	stored := f.get("cm")
	assert.Equal(t, cm.ResourceVersion, stored.ResourceVersion)
	assert.Equal(t, map[string]string{"a": "1", "b": "2"}, stored.Data, "kubeloop's store reads your write back")
	assert.Equal(t, before.UID, stored.UID, "the rest of the object is kept")
}

// The resourceVersion is the key's revision, never part of the value: a
// stored copy would be stale the moment it is written.
func TestStoredValueCarriesNoResourceVersion(t *testing.T) {
	f := newFixture(t)
	f.create("cm", nil)
	_, err := f.update("cm", setData("b", "2"))
	require.NoError(t, err)

	raw, err := etcd.Client().Get(f.ctx, f.key("cm"))
	require.NoError(t, err)
	require.Len(t, raw.Kvs, 1)
	value := raw.Kvs[0].Value
	assert.True(t, bytes.HasPrefix(value, []byte(api.ProtobufPrefix)),
		"a ConfigMap is stored as protobuf, as store.Store stores it: store the bytes s.encode gives, got %q", value)
	var stored api.ConfigMap
	require.NoError(t, store.DecodeValue(value, &stored), "the value is what s.encode gives")
	assert.Empty(t, stored.ResourceVersion, "store the bytes s.encode gives")
	assert.Equal(t, "v1", stored.APIVersion)
	assert.Equal(t, "ConfigMap", stored.Kind)
	assert.Equal(t, map[string]string{"b": "2"}, stored.Data)
}

func TestUpdateOfAMissingObjectIsNotFound(t *testing.T) {
	f := newFixture(t)
	rev := f.revision()
	called := false
	_, err := f.update("nope", func(obj api.Object) (api.Object, error) {
		called = true
		return obj, nil
	})
	require.Error(t, err)
	assert.True(t, api.IsNotFound(err), "want a NotFound status error, got %v", err)
	assert.False(t, called, "tryUpdate must not be called without an object")
	assert.Equal(t, rev, f.revision(), "nothing is written")
}

func TestTryUpdateErrorIsReturnedAndNothingIsWritten(t *testing.T) {
	f := newFixture(t)
	f.create("cm", nil)
	rev := f.revision()
	refuse := errors.New("admission says no")
	_, err := f.update("cm", func(api.Object) (api.Object, error) { return nil, refuse })
	assert.ErrorIs(t, err, refuse, "the error of tryUpdate comes back as is")
	assert.Equal(t, rev, f.revision(), "nothing is written")
}

// An update that changes nothing writes nothing: no new revision, no watch
// event, the same resourceVersion. (A controller that writes its status on
// every pass relies on this not to wake everyone up.)
func TestUnchangedObjectIsNotWritten(t *testing.T) {
	f := newFixture(t)
	before := f.create("cm", map[string]string{"a": "1"})
	rev := f.revision()
	out, err := f.update("cm", setData("a", "1"))
	require.NoError(t, err)
	assert.Equal(t, rev, f.revision(), "an unchanged object must not be written")
	assert.Equal(t, before.ResourceVersion, out.GetObjectMeta().ResourceVersion)
}

// The heart of it. Between your read and your write, another writer
// changes the object. Your transaction must lose, and tryUpdate must be
// called again with the other writer's version, so that both changes
// survive.
func TestConflictRetriesFromWhatTheOtherWriterLeft(t *testing.T) {
	f := newFixture(t)
	f.create("cm", map[string]string{"n": "0"})
	var calls []map[string]string
	out, err := f.update("cm", func(obj api.Object) (api.Object, error) {
		cm := obj.(*api.ConfigMap)
		calls = append(calls, maps(cm.Data))
		switch len(calls) {
		case 1:
			// Someone else writes first, through the real store.
			_, err := f.theirs.GuaranteedUpdate(f.ctx, f.key("cm"), nil, func(o api.Object) (api.Object, error) {
				o.(*api.ConfigMap).Data["other"] = "was here"
				return o, nil
			}, nil)
			require.NoError(t, err)
		case 2:
		default:
			return nil, fmt.Errorf("tryUpdate called %d times for one conflict, each time with %v: "+
				"after a lost transaction, retry with the value the other writer left", len(calls), calls[len(calls)-1])
		}
		cm.Data["mine"] = "too"
		return cm, nil
	})
	require.NoError(t, err)
	require.Len(t, calls, 2, "one conflict, so exactly two calls of tryUpdate")
	assert.Equal(t, map[string]string{"n": "0"}, calls[0])
	assert.Equal(t, map[string]string{"n": "0", "other": "was here"}, calls[1],
		"the second call must see the other writer's change")
	want := map[string]string{"n": "0", "other": "was here", "mine": "too"}
	assert.Equal(t, want, out.(*api.ConfigMap).Data)
	assert.Equal(t, want, f.get("cm").Data, "both changes are stored")
}

func maps(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// 64 writers increment one counter at once. Every increment must land:
// the counter ends at 64, etcd's revision moved by exactly 64 (one write
// per increment, none wasted), and a watcher sees 1, 2, ..., 64 in order,
// each value once.
func TestSixtyFourConcurrentIncrementsLoseNone(t *testing.T) {
	const writers = 64
	f := newFixture(t)
	f.create("counter", map[string]string{"n": "0"})
	start := f.revision()
	w, err := f.theirs.Watch(f.ctx, f.info.KeyPrefix()+f.ns+"/", store.ListOptions{ResourceVersion: strconv.FormatInt(start, 10)})
	require.NoError(t, err)
	defer w.Stop()

	var wg sync.WaitGroup
	var tries atomic.Int64
	errs := make(chan error, writers)
	for range writers {
		wg.Go(func() {
			calls := 0
			_, err := f.yours.GuaranteedUpdate(f.ctx, f.key("counter"), func(obj api.Object) (api.Object, error) {
				tries.Add(1)
				if calls++; calls > 2*writers {
					return nil, fmt.Errorf("tryUpdate called %d times for one increment: a retry that never sees the new value loops forever", calls)
				}
				cm := obj.(*api.ConfigMap)
				n, err := strconv.Atoi(cm.Data["n"])
				if err != nil {
					return nil, err
				}
				cm.Data["n"] = strconv.Itoa(n + 1)
				return cm, nil
			})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if errors.Is(err, ErrNotImplemented) {
			t.Fatal("GuaranteedUpdate is not written yet: the stub in update.go returns ErrNotImplemented")
		}
		require.NoError(t, err)
	}

	assert.Equal(t, strconv.Itoa(writers), f.get("counter").Data["n"], "increments were lost")
	assert.Equal(t, start+writers, f.revision(), "one write per increment: etcd's revision must move by exactly %d", writers)
	t.Logf("%d increments took %d calls of tryUpdate", writers, tries.Load())

	var seen []string
	timeout := time.After(30 * time.Second)
	for len(seen) < writers {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "the watch ended after %d events", len(seen))
			require.Equal(t, api.Modified, ev.Type)
			seen = append(seen, ev.Object.(*api.ConfigMap).Data["n"])
		case <-timeout:
			t.Fatalf("a watcher saw only %d updates: %v", len(seen), seen)
		}
	}
	for i, n := range seen {
		require.Equal(t, strconv.Itoa(i+1), n, "update %d of the counter, as a watcher saw them: %v", i+1, seen)
	}
}
