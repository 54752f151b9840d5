package fieldmanager

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/typed"
)

// A heartbeat-like update (the writer changes a value it owns) keeps every
// entry's stored FieldsV1, the very bytes, and moves only the writer's
// time; an update that changes ownership writes the sets anew.
func TestSameOwnershipKeepsTheStoredBytes(t *testing.T) {
	f := configMapManager("")
	live := create(t, f, cm(map[string]string{"a": "1", "b": "1"}, nil), "m")
	next := cm(map[string]string{"a": "1", "b": "1", "c": "1"}, live.ManagedFields)
	f.Update(live, next, "other")
	live = next
	require.Equal(t, []string{`m/Update/={"f:data":{".":{},"f:a":{},"f:b":{}}}`, `other/Update/={"f:data":{"f:c":{}}}`}, summary(live.ManagedFields))

	clock = clock.Add(time.Minute)
	defer func() { clock = clock.Add(-time.Minute) }()
	for _, sendBack := range []bool{true, false} {
		next = cm(map[string]string{"a": "2", "b": "1", "c": "1"}, nil)
		if sendBack {
			next.ManagedFields = live.ManagedFields
		}
		f.Update(live, next, "m")
		require.Len(t, next.ManagedFields, 2)
		assert.ElementsMatch(t, summary(live.ManagedFields), summary(next.ManagedFields), "sent back: %v", sendBack)
		before, after := byManager(live.ManagedFields), byManager(next.ManagedFields)
		for _, m := range []string{"m", "other"} {
			assert.Same(t, &before[m].FieldsV1.Raw[0], &after[m].FieldsV1.Raw[0], "%s's bytes are the stored ones", m)
		}
		assert.Equal(t, clock, after["m"].Time.Time, "the writer's time moves")
		assert.Equal(t, before["other"].Time, after["other"].Time)
	}

	next = cm(map[string]string{"a": "2", "c": "2"}, live.ManagedFields)
	f.Update(live, next, "m")
	assert.Equal(t, []string{`m/Update/={"f:data":{".":{},"f:a":{},"f:c":{}}}`}, summary(next.ManagedFields),
		"m lost b (removed), took c from other, which is left with nothing")
}

func byManager(entries []api.ManagedFieldsEntry) map[string]*api.ManagedFieldsEntry {
	out := map[string]*api.ManagedFieldsEntry{}
	for i := range entries {
		out[entries[i].Manager] = &entries[i]
	}
	return out
}

// A create written in one walk (create_fast.go) records what the plain
// comparison with an empty object records.
func TestCreateFastEqualsComparison(t *testing.T) {
	withStatus := realisticPod()
	bare := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "n"}}
	cmap := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Labels: map[string]string{"a": "b"}},
		Data: map[string]string{"k": "v"}, BinaryData: map[string][]byte{"b": {1}}}
	for _, obj := range []api.Object{withStatus, bare, cmap, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "x", Finalizers: []string{"b", "a"}}}} {
		f := NewFieldManager(typed.ForObject(obj), "v1", "")
		f.Now = func() time.Time { return clock }
		empty := func() api.Object { return reflect.New(reflect.TypeOf(obj).Elem()).Interface().(api.Object) }
		fast, plain := obj.DeepCopyObject(), obj.DeepCopyObject()
		require.True(t, f.recordCreate(empty(), fast, "creator"), "%T takes the fast path", obj)
		require.NoError(t, f.updateByComparison(empty(), plain, "creator"))
		assert.Equal(t, plain.GetObjectMeta().ManagedFields, fast.GetObjectMeta().ManagedFields, "%T", obj)
	}
}

// The fast path is only for creates that sent no managedFields.
func TestCreateFastLeavesOtherWritesToTheComparison(t *testing.T) {
	f := NewFieldManager(typed.ForObject(&api.Pod{}), "v1", "")
	live := realisticPod()
	assert.False(t, f.recordCreate(live, live.DeepCopy(), "m"), "an update")
	sent := realisticPod()
	sent.ManagedFields = []api.ManagedFieldsEntry{{Manager: "x", Operation: "Update", FieldsType: "FieldsV1", FieldsV1: &api.FieldsV1{Raw: []byte(`{"f:spec":{}}`)}}}
	assert.False(t, f.recordCreate(&api.Pod{}, sent, "m"), "a create that sends managedFields")
	status := NewFieldManager(f.Type, "v1", "status")
	assert.False(t, status.recordCreate(&api.Pod{}, realisticPod(), "m"), "a subresource")
}
