package watchcache

import (
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

func TestWatchersShareOneEncodingPerEventObject(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{})
	start := create(t, c, info, configMap("ns", "seed", nil))
	from := store.ListOptions{ResourceVersion: start.GetObjectMeta().ResourceVersion}
	var encodes atomic.Int32
	enc := func(o api.Object) ([]byte, error) {
		encodes.Add(1)
		return json.Marshal(o)
	}
	var outs [][]byte
	created := create(t, c, info, configMap("ns", "a", nil))
	for range 3 {
		w, err := c.Watch(ctxFor(t), info.KeyPrefix(), from)
		require.NoError(t, err)
		defer w.Stop()
		var ev api.WatchEvent
		select {
		case ev = <-w.ResultChan():
		case <-time.After(waitFor):
			t.Fatal("no event")
		}
		shared, ok := w.(interface {
			EncodeObject(api.Object, string, func(api.Object) ([]byte, error)) ([]byte, error)
		})
		require.True(t, ok, "a cache watcher shares encodings")
		b, err := shared.EncodeObject(ev.Object, "application/json", enc)
		require.NoError(t, err)
		outs = append(outs, b)
	}
	require.Equal(t, int32(1), encodes.Load(), "one encoding for three watchers")
	want, err := json.Marshal(created)
	require.NoError(t, err)
	for _, b := range outs {
		require.JSONEq(t, string(want), string(b))
	}
}

func TestEncodeMemoForgetsTheOldestObjects(t *testing.T) {
	m := newEncodeMemo()
	calls := 0
	enc := func(o api.Object) ([]byte, error) { calls++; return []byte(o.GetObjectMeta().Name), nil }
	first := configMap("ns", "first", nil)
	_, _ = m.encode(first, "application/json", enc)
	for i := range encodeMemoSize {
		_, _ = m.encode(configMap("ns", rvString(uint64(i)), nil), "application/json", enc)
	}
	require.Len(t, m.byObj, encodeMemoSize)
	calls = 0
	b, err := m.encode(first, "application/json", enc)
	require.NoError(t, err)
	require.Equal(t, "first", string(b))
	require.Equal(t, 1, calls, "the first object was evicted and is encoded again")
}

func TestEncodeMemoKeepsOneEncodingPerMediaType(t *testing.T) {
	m := newEncodeMemo()
	obj := configMap("ns", "a", nil)
	json1, err := m.encode(obj, "application/json", func(api.Object) ([]byte, error) { return []byte("json"), nil })
	require.NoError(t, err)
	pb, err := m.encode(obj, "application/vnd.kubernetes.protobuf", func(api.Object) ([]byte, error) { return []byte("pb"), nil })
	require.NoError(t, err)
	json2, err := m.encode(obj, "application/json", func(api.Object) ([]byte, error) { return []byte("again"), nil })
	require.NoError(t, err)
	require.Equal(t, "json", string(json1))
	require.Equal(t, "pb", string(pb), "a protobuf watcher never gets the JSON of the same object")
	require.Equal(t, "json", string(json2), "the JSON encoding is still remembered")
}
