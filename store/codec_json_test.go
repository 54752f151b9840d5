package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
	"kubeloop/store"
)

// Values written as JSON — by a kubeloop from before built-in kinds were
// stored as protobuf, or by hand — are still objects like any other.

// putJSON writes cm under its key as the JSON an older kubeloop stored:
// apiVersion and kind set, no resourceVersion. It returns the revision.
func (f *fixture) putJSON(cli *clientv3.Client, cm *api.ConfigMap) int64 {
	f.t.Helper()
	cm = cm.DeepCopy()
	cm.APIVersion, cm.Kind = "v1", "ConfigMap"
	data, err := api.Encode(cm)
	require.NoError(f.t, err)
	require.True(f.t, bytes.HasPrefix(data, []byte(`{`)))
	resp, err := cli.Put(f.ctx, f.key(cm.Name), string(data))
	require.NoError(f.t, err)
	return resp.Header.Revision
}

// asStored is cm as the store returns it after a write at rev.
func asStored(cm *api.ConfigMap, rev int64) *api.ConfigMap {
	out := cm.DeepCopy()
	out.APIVersion, out.Kind = "v1", "ConfigMap"
	out.ResourceVersion = strconv.FormatInt(rev, 10)
	return out
}

func TestAValueStoredAsJSONReadsListsAndWatches(t *testing.T) {
	f := newFixture(t)
	a := f.configMap("a", map[string]string{"app": "old"}, map[string]string{"k": "v"})
	revA := f.putJSON(f.client(), a)

	got, err := f.store.Get(f.ctx, f.key("a"), store.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, asStored(a, revA), got)

	w, err := f.store.Watch(f.ctx, f.prefix(), store.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	defer w.Stop()
	ev := next(t, w)
	assert.Equal(t, api.Added, ev.Type)
	assert.Equal(t, asStored(a, revA), ev.Object, "the initial events read JSON")

	b := f.configMap("b", nil, map[string]string{"x": "y"})
	revB := f.putJSON(f.client(), b)
	ev = next(t, w)
	assert.Equal(t, api.Added, ev.Type)
	assert.Equal(t, asStored(b, revB), ev.Object, "a watch event reads JSON")

	list, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, []api.Object{asStored(a, revA), asStored(b, revB)}, list.Items)
}

// An update writes protobuf whatever it read. Its bytes differ from the
// JSON, so even an update that changes nothing writes once, as
// Kubernetes' does when its storage format changes; the next one writes
// nothing.
func TestAnUpdateRewritesAJSONValueAsProtobuf(t *testing.T) {
	f := newFixture(t)
	a := f.configMap("a", nil, map[string]string{"k": "v"})
	revJSON := f.putJSON(f.client(), a)
	unchanged := func(obj api.Object) (api.Object, error) { return obj, nil }

	out, err := f.store.GuaranteedUpdate(f.ctx, f.key("a"), nil, unchanged, nil)
	require.NoError(t, err)
	rev := rvOf(t, out)
	assert.Greater(t, rev, revJSON)
	raw, err := f.client().Get(f.ctx, f.key("a"))
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(raw.Kvs[0].Value, []byte(api.ProtobufPrefix)), "rewritten as protobuf")
	assert.Equal(t, asStored(a, rev), out)

	again, err := f.store.GuaranteedUpdate(f.ctx, f.key("a"), nil, unchanged, nil)
	require.NoError(t, err)
	assert.Equal(t, rev, rvOf(t, again), "now the stored bytes are the object's: no write")
}

// The data dir of a cluster that stored JSON starts and serves.
func TestARestartOnADataDirOfJSONValuesServesThem(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	old, err := store.StartEmbedded(store.EmbeddedConfig{DataDir: dir, UnsafeNoFsync: true, LogLevel: "fatal"})
	require.NoError(t, err)
	a := f.configMap("a", nil, map[string]string{"k": "v"})
	revA := f.putJSON(old.Client(), a)
	old.Close()

	e, err := store.StartEmbedded(store.EmbeddedConfig{DataDir: dir, UnsafeNoFsync: true, LogLevel: "fatal"})
	require.NoError(t, err)
	defer e.Close()
	s := store.New(e.Client(), f.info)
	list, err := s.List(f.ctx, f.prefix(), store.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, []api.Object{asStored(a, revA)}, list.Items)

	created, err := s.Create(f.ctx, f.key("b"), f.configMap("b", nil, nil))
	require.NoError(t, err)
	list, err = s.List(f.ctx, f.prefix(), store.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, []api.Object{asStored(a, revA), created}, list.Items, "JSON and protobuf side by side")
}

// Custom resources have no protobuf form: they stay JSON, in Kubernetes
// too.
func TestCustomResourcesAreStoredAsJSON(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	info := &api.ResourceInfo{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true,
		New: func() api.Object { return &api.Unstructured{} }, NewList: func() api.ListObject { return &api.UnstructuredList{} }}
	s := store.New(etcd.Client(), info)
	key := info.Key("testcustomresourcesarestoredasjson", "w")
	_, err := etcd.Client().Delete(ctx, key)
	require.NoError(t, err)
	w := &api.Unstructured{ObjectMeta: api.ObjectMeta{Name: "w", Namespace: "testcustomresourcesarestoredasjson"},
		Content: map[string]any{"spec": map[string]any{"size": int64(3)}}}
	created, err := s.Create(ctx, key, w)
	require.NoError(t, err)

	raw, err := etcd.Client().Get(ctx, key)
	require.NoError(t, err)
	require.Len(t, raw.Kvs, 1)
	var stored map[string]any
	require.NoError(t, json.Unmarshal(raw.Kvs[0].Value, &stored), "the value is JSON: %q", raw.Kvs[0].Value)
	assert.Equal(t, "example.com/v1", stored["apiVersion"])
	assert.Equal(t, "Widget", stored["kind"])
	assert.Equal(t, map[string]any{"size": float64(3)}, stored["spec"])
	assert.NotContains(t, stored["metadata"], "resourceVersion")

	got, err := s.Get(ctx, key, store.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, created, got)
}

func TestAProtobufValueOfAKindWithoutProtobufIsAnError(t *testing.T) {
	cm := &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: api.ObjectMeta{Name: "a"}}
	data, err := store.EncodeValue(cm)
	require.NoError(t, err)
	err = store.DecodeValue(data, &api.Unstructured{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "*api.Unstructured, which has no protobuf form")
}

// A CustomResourceDefinition may repeat a built-in resource's group and
// plural: its custom resources then share the built-in objects' keys. Its
// storage leaves out the built-in objects (protobuf where its own are
// JSON), so that nothing done through it, such as deleting the custom
// resources of a deleted CRD, reaches a built-in object.
func TestACustomResourceStorageLeavesOutBuiltInObjectsUnderItsKeys(t *testing.T) {
	f := newFixture(t)
	shadow := &api.ResourceInfo{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespaced: true,
		New: func() api.Object { return &api.Unstructured{} }, NewList: func() api.ListObject { return &api.UnstructuredList{} }}
	require.Equal(t, f.prefix(), shadow.KeyPrefix()+f.ns+"/", "the same keys")
	custom := store.New(f.client(), shadow)
	f.create("builtin-before", nil)

	w, err := custom.Watch(f.ctx, f.prefix(), store.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	defer w.Stop()
	f.create("builtin-after", nil)
	mine, err := custom.Create(f.ctx, f.key("custom"), &api.Unstructured{
		ObjectMeta: api.ObjectMeta{Name: "custom", Namespace: f.ns}, Content: map[string]any{"data": map[string]any{"k": "v"}}})
	require.NoError(t, err)
	ev := next(t, w)
	assert.Equal(t, api.Added, ev.Type)
	assert.Equal(t, "custom", ev.Object.GetObjectMeta().Name, "no event for the built-in objects, before or after")

	list, err := custom.List(f.ctx, f.prefix(), store.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, []api.Object{mine}, list.Items)
	builtins, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{})
	require.NoError(t, err)
	// The built-in storage has its own, and reads the JSON too, as it reads
	// a value written before built-in kinds were protobuf.
	assert.Equal(t, []string{"builtin-after", "builtin-before", "custom"}, names(builtins.Items))
}
