package fieldmanager

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// TestMemoChangesNothing runs one sequence of writes with and without the
// memos: the managedFields must be the same bytes.
func TestMemoChangesNothing(t *testing.T) {
	run := func(memo bool) [][]string {
		f := configMapManager("")
		if !memo {
			f.memo = nil
		}
		live := create(t, f, cm(map[string]string{"a": "1", "b": "1"}, nil), "creator")
		var out [][]string
		for i, w := range []struct {
			data    map[string]string
			manager string
		}{
			{map[string]string{"a": "2", "b": "1"}, "editor"},
			{map[string]string{"a": "2", "b": "1", "c": "1"}, "third"},
			{map[string]string{"a": "3", "b": "1", "c": "1"}, "editor"},
			{map[string]string{"c": "1"}, "creator"},
		} {
			next := cm(w.data, live.ManagedFields)
			next.ManagedFields = nil
			f.Update(live, next, w.manager)
			require.NotEmpty(t, next.ManagedFields, "step %d", i)
			out = append(out, summary(next.ManagedFields))
			live = next
		}
		return out
	}
	assert.Equal(t, run(false), run(true))
}

func TestClientSentFieldsV1IsReencoded(t *testing.T) {
	f := configMapManager("")
	sent := []api.ManagedFieldsEntry{{Manager: "m", Operation: api.ManagedFieldsOperationUpdate, APIVersion: "v1",
		FieldsType: "FieldsV1", FieldsV1: &api.FieldsV1{Raw: []byte(`{ "f:data" : { "f:a" : {} } }`)}}}
	obj := create(t, f, cm(map[string]string{"a": "1"}, sent), "m")
	assert.Equal(t, []string{`m/Update/={"f:data":{".":{},"f:a":{}}}`}, summary(obj.ManagedFields))

	// The stored object holds the canonical bytes (as every stored object
	// does); the client sends the same set spelled its own way.
	stored := []api.ManagedFieldsEntry{sent[0]}
	stored[0].FieldsV1 = &api.FieldsV1{Raw: []byte(`{"f:data":{"f:a":{}}}`)}
	live := cm(map[string]string{"a": "1", "b": "1"}, stored)
	next := cm(map[string]string{"a": "1", "b": "1"}, sent)
	f.Update(live, next, "other")
	assert.Equal(t, []string{`m/Update/={"f:data":{"f:a":{}}}`}, summary(next.ManagedFields), "canonical bytes, not the client's")
}

func TestPlainIdentifierIsJSONMarshal(t *testing.T) {
	for _, e := range []Entry{
		{Manager: "kubectl", Operation: "Update", APIVersion: "v1"},
		{Manager: "kubelet", Operation: "Update", APIVersion: "v1", Subresource: "status"},
		{Manager: "deployer", Operation: "Apply", APIVersion: "apps/v1"},
		{}, {Manager: `a "quoted" <name> & more`, Operation: "Update"}, {Manager: "caf\u00e9", Operation: "Update"},
		{Manager: "tab\there", Operation: "Update"},
	} {
		id := api.ManagedFieldsEntry{Manager: e.Manager, Operation: e.Operation, APIVersion: e.APIVersion, Subresource: e.Subresource}
		if e.Operation == api.ManagedFieldsOperationApply {
			id.APIVersion = ""
		}
		want, err := json.Marshal(id)
		require.NoError(t, err)
		assert.Equal(t, string(want), e.identifier(), "%+v", e)
	}
}

// A writer adding the same field to two objects it made alike: the
// second sum comes from the memo, with the bytes the plain path writes,
// and the two objects do not share them.
func TestUnionMemoWritesWhatTheUnionWrites(t *testing.T) {
	addD := func(f *FieldManager) []*api.ConfigMap {
		var out []*api.ConfigMap
		for range 2 {
			live := create(t, f, cm(map[string]string{"a": "1"}, nil), "creator")
			next := cm(map[string]string{"a": "1", "d": "1"}, nil)
			f.Update(live, next, "creator")
			out = append(out, next)
		}
		return out
	}
	plain := configMapManager("")
	plain.memo = nil
	want := addD(plain)
	f := configMapManager("")
	got := addD(f)
	require.Len(t, f.memo.unions, 1, "the second object's sum is the first's")
	for i := range got {
		assert.Equal(t, summary(want[i].ManagedFields), summary(got[i].ManagedFields))
	}
	assert.Equal(t, []string{`creator/Update/={"f:data":{".":{},"f:a":{},"f:d":{}}}`}, summary(got[1].ManagedFields))
	got[0].ManagedFields[0].FieldsV1.Raw[0] = 'X'
	assert.Equal(t, byte('{'), got[1].ManagedFields[0].FieldsV1.Raw[0])
}
