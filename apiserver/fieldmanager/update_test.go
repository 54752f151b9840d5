package fieldmanager

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/typed"
)

var clock = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func configMapManager(subresource string) *FieldManager {
	f := NewFieldManager(typed.ForObject(&api.ConfigMap{}), "v1", subresource)
	f.Now = func() time.Time { return clock }
	// ConfigMaps have no status subresource; the tests use "status" only
	// as a name, so nothing is reset.
	f.ResetFields = nil
	return f
}

func cm(data map[string]string, managed []api.ManagedFieldsEntry) *api.ConfigMap {
	return &api.ConfigMap{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default", UID: "u", ManagedFields: managed},
		Data:       data,
	}
}

// summary writes entries as "manager/operation/subresource=fieldsV1".
func summary(entries []api.ManagedFieldsEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, fmt.Sprintf("%s/%s/%s=%s", e.Manager, e.Operation, e.Subresource, e.FieldsV1.Raw))
	}
	return out
}

func create(t *testing.T, f *FieldManager, obj *api.ConfigMap, manager string) *api.ConfigMap {
	t.Helper()
	obj.UID = ""
	f.Update(&api.ConfigMap{}, obj, manager)
	obj.UID = "u"
	return obj
}

func TestCreateRecordsTheCreatorsFields(t *testing.T) {
	f := configMapManager("")
	obj := create(t, f, cm(map[string]string{"a": "1"}, nil), "kubectl")
	require.Len(t, obj.ManagedFields, 1)
	e := obj.ManagedFields[0]
	assert.Equal(t, "kubectl", e.Manager)
	assert.Equal(t, api.ManagedFieldsOperationUpdate, e.Operation)
	assert.Equal(t, "v1", e.APIVersion)
	assert.Equal(t, "FieldsV1", e.FieldsType)
	assert.Equal(t, clock, e.Time.Time)
	assert.Equal(t, `{"f:data":{".":{},"f:a":{}}}`, string(e.FieldsV1.Raw))
}

func TestUpdateMovesChangedFieldsToTheWriter(t *testing.T) {
	f := configMapManager("")
	live := create(t, f, cm(map[string]string{"a": "1", "b": "1"}, nil), "creator")
	for _, tc := range []struct {
		name    string
		data    map[string]string
		manager string
		want    []string
	}{
		{"another manager takes a changed key", map[string]string{"a": "2", "b": "1"}, "editor",
			[]string{`creator/Update/={"f:data":{".":{},"f:b":{}}}`, `editor/Update/={"f:data":{"f:a":{}}}`}},
		{"an unchanged write records nothing", map[string]string{"a": "1", "b": "1"}, "editor",
			[]string{`creator/Update/={"f:data":{".":{},"f:a":{},"f:b":{}}}`}},
		{"a removed key leaves its owner", map[string]string{"b": "1"}, "editor",
			[]string{`creator/Update/={"f:data":{".":{},"f:b":{}}}`}},
		{"an entry that loses everything goes", nil, "editor",
			nil},
		{"an empty manager is unknown", map[string]string{"a": "1", "b": "1", "c": "1"}, "",
			[]string{`creator/Update/={"f:data":{".":{},"f:a":{},"f:b":{}}}`, `unknown/Update/={"f:data":{"f:c":{}}}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			newObj := cm(tc.data, live.ManagedFields)
			f.Update(live, newObj, tc.manager)
			var got []string
			if newObj.ManagedFields != nil {
				got = summary(newObj.ManagedFields)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestUpdateBySameManagerMergesIntoItsEntry(t *testing.T) {
	f := configMapManager("")
	live := create(t, f, cm(map[string]string{"a": "1"}, nil), "m")
	clock = clock.Add(time.Minute)
	defer func() { clock = clock.Add(-time.Minute) }()
	newObj := cm(map[string]string{"a": "1", "b": "2"}, live.ManagedFields)
	f.Update(live, newObj, "m")
	require.Len(t, newObj.ManagedFields, 1)
	assert.Equal(t, `{"f:data":{".":{},"f:a":{},"f:b":{}}}`, string(newObj.ManagedFields[0].FieldsV1.Raw))
	assert.Equal(t, clock, newObj.ManagedFields[0].Time.Time, "gaining fields moves the time")
}

func TestSubresourceIsItsOwnManagerAndIgnoresTheRequestsManagedFields(t *testing.T) {
	f := configMapManager("")
	live := create(t, f, cm(map[string]string{"a": "1"}, nil), "m")
	status := configMapManager("status")
	forged := []api.ManagedFieldsEntry{{Manager: "forged", Operation: "Update", FieldsType: "FieldsV1", FieldsV1: &api.FieldsV1{Raw: []byte(`{"f:data":{}}`)}}}
	newObj := cm(map[string]string{"a": "2"}, forged)
	status.Update(live, newObj, "m")
	// the main entry keeps .data itself (it created the map), loses .data.a
	assert.Equal(t, []string{`m/Update/={"f:data":{}}`, `m/Update/status={"f:data":{"f:a":{}}}`}, summary(newObj.ManagedFields))
}

func TestExistingObjectWithoutManagedFieldsStaysUntracked(t *testing.T) {
	f := configMapManager("")
	live := cm(map[string]string{"a": "1"}, nil)
	newObj := cm(map[string]string{"a": "2"}, nil)
	f.Update(live, newObj, "m")
	assert.Nil(t, newObj.ManagedFields)
}

func TestResetAndUndecodableManagedFields(t *testing.T) {
	f := configMapManager("")
	live := create(t, f, cm(map[string]string{"a": "1"}, nil), "creator")
	for _, tc := range []struct {
		name string
		sent []api.ManagedFieldsEntry
		want []string
	}{
		{"empty list resets", []api.ManagedFieldsEntry{}, nil},
		{"one empty entry resets", []api.ManagedFieldsEntry{{}}, nil},
		{"undecodable falls back to the live ones", []api.ManagedFieldsEntry{{Manager: "x", Operation: "Update", FieldsType: "FieldsV2"}},
			[]string{`creator/Update/={"f:data":{".":{},"f:a":{}}}`, `m/Update/={"f:data":{"f:b":{}}}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			newObj := cm(map[string]string{"a": "1", "b": "1"}, tc.sent)
			f.Update(live, newObj, "m")
			if tc.want == nil {
				// reset on an existing object: untracked, as Kubernetes does
				assert.Nil(t, newObj.ManagedFields)
				return
			}
			assert.Equal(t, tc.want, summary(newObj.ManagedFields))
		})
	}
}

func TestMoreThanMaxUpdateManagersMergeIntoAncientChanges(t *testing.T) {
	f := configMapManager("")
	f.MaxUpdateManagers = 3
	start := clock
	defer func() { clock = start }()
	live := create(t, f, cm(map[string]string{"k0": "v"}, nil), "m0")
	for i := 1; i <= 4; i++ {
		clock = start.Add(time.Duration(i) * time.Second)
		data := map[string]string{}
		for k, v := range live.Data {
			data[k] = v
		}
		data[fmt.Sprintf("k%d", i)] = "v"
		newObj := cm(data, live.ManagedFields)
		f.Update(live, newObj, fmt.Sprintf("m%d", i))
		live = newObj
	}
	// the third write merged m0 and m1; the fourth finds ancient-changes the
	// oldest Update entry and merges m2 into it
	assert.Equal(t, []string{
		`ancient-changes/Update/={"f:data":{".":{},"f:k0":{},"f:k1":{},"f:k2":{}}}`,
		`m3/Update/={"f:data":{"f:k3":{}}}`,
		`m4/Update/={"f:data":{"f:k4":{}}}`,
	}, summary(live.ManagedFields))
}

func TestManagerOrUserAgent(t *testing.T) {
	long := ""
	for range 130 {
		long += "x"
	}
	for _, tc := range []struct{ manager, ua, want string }{
		{"mine", "kubectl/v1.37.2", "mine"},
		{"", "kubectl/v1.37.2 (linux/amd64) kubernetes/abc", "kubectl"},
		{"", "kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/abc/system:serviceaccount:kube-system:replicaset-controller", "kube-controller-manager"},
		{"", "Go-http-client/1.1", "Go-http-client"},
		{"", "a\x01b/1", "ab"},
		{"", "", ""},
		{"", long, long[:128]},
	} {
		assert.Equal(t, tc.want, ManagerOrUserAgent(tc.manager, tc.ua), tc.ua)
	}
}

func TestValidateManager(t *testing.T) {
	assert.Empty(t, ValidateManager("kubectl"))
	assert.Empty(t, ValidateManager(""))
	assert.Equal(t, []api.StatusCause{{Type: api.CauseTypeFieldValueInvalid, Field: "fieldManager",
		Message: `Invalid value: "a\x01": invalid character U+0001 (at position 1)`}}, ValidateManager("a\x01"))
	long := make([]byte, 129)
	for i := range long {
		long[i] = 'x'
	}
	assert.Equal(t, []api.StatusCause{{Type: api.CauseTypeFieldValueTooLong, Field: "fieldManager",
		Message: "Too long: may not be more than 128 bytes"}}, ValidateManager(string(long)))
}

func TestEntriesSortApplyFirstThenTimeThenManager(t *testing.T) {
	m := NewManaged()
	t1, t2 := api.NewTime(clock), api.NewTime(clock.Add(time.Second))
	for _, e := range []*Entry{
		{Manager: "b", Operation: "Update", APIVersion: "v1", Time: &t1},
		{Manager: "a", Operation: "Update", APIVersion: "v1", Time: &t2},
		{Manager: "z", Operation: "Apply", APIVersion: "v1", Time: &t2},
		{Manager: "a", Operation: "Update", APIVersion: "v1", Time: &t1, Subresource: "status"},
	} {
		m.Put(e)
	}
	var got []string
	for _, e := range m.Entries() {
		got = append(got, e.Manager+"/"+e.Subresource)
	}
	assert.Equal(t, []string{"z/", "a/status", "b/", "a/"}, got)
}
