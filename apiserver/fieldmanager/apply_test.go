package fieldmanager

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/typed"
)

// applyCM applies a ConfigMap configuration given as JSON to live and
// returns the resulting object.
func applyCM(t *testing.T, f *FieldManager, live *api.ConfigMap, config, manager string, force bool) (*api.ConfigMap, error) {
	t.Helper()
	cfg, err := typed.DecodeValue([]byte(config))
	require.NoError(t, err)
	merged, managed, err := f.Apply(live, cfg, manager, force)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(merged)
	require.NoError(t, err)
	out := &api.ConfigMap{}
	require.NoError(t, json.Unmarshal(b, out))
	out.ManagedFields = managed
	out.UID = "u"
	return out, nil
}

const cfgAB = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"},"data":{"a":"1","b":"1"}}`

func TestApplyCreatesAndRecordsAppliedFields(t *testing.T) {
	f := configMapManager("")
	obj, err := applyCM(t, f, &api.ConfigMap{}, cfgAB, "alice", false)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"a": "1", "b": "1"}, obj.Data)
	assert.Equal(t, []string{`alice/Apply/={"f:data":{"f:a":{},"f:b":{}}}`}, summary(obj.ManagedFields))
	assert.Equal(t, "v1", obj.ManagedFields[0].APIVersion)
}

func TestApplyConflictsWithAnotherManagersField(t *testing.T) {
	f := configMapManager("")
	live, err := applyCM(t, f, &api.ConfigMap{}, cfgAB, "alice", false)
	require.NoError(t, err)

	_, err = applyCM(t, f, live, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"2"}}`, "bob", false)
	var ce *ConflictError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "alice": .data.a`, err.Error())
	st := ce.Status().ErrStatus
	assert.Equal(t, int32(http.StatusConflict), st.Code)
	assert.Equal(t, api.StatusReasonConflict, st.Reason)
	assert.Equal(t, []api.StatusCause{{Type: api.CauseTypeFieldManagerConflict, Message: `conflict with "alice"`, Field: ".data.a"}}, st.Details.Causes)

	// the same value is no conflict: both own it
	shared, err := applyCM(t, f, live, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1"}}`, "bob", false)
	require.NoError(t, err)
	assert.Equal(t, []string{`alice/Apply/={"f:data":{"f:a":{},"f:b":{}}}`, `bob/Apply/={"f:data":{"f:a":{}}}`}, summary(shared.ManagedFields))

	forced, err := applyCM(t, f, live, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"2"}}`, "bob", true)
	require.NoError(t, err)
	assert.Equal(t, "2", forced.Data["a"])
	assert.Equal(t, []string{`alice/Apply/={"f:data":{"f:b":{}}}`, `bob/Apply/={"f:data":{"f:a":{}}}`}, summary(forced.ManagedFields))
}

func TestApplyConflictMessageWithSeveralFields(t *testing.T) {
	f := configMapManager("")
	live := create(t, f, cm(map[string]string{"a": "1", "b": "1"}, nil), "kubectl-create")
	_, err := applyCM(t, f, live, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"2","b":"2"}}`, "bob", false)
	var ce *ConflictError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "Apply failed with 2 conflicts: conflicts with \"kubectl-create\" using v1:\n- .data.a\n- .data.b", err.Error())
	assert.Len(t, ce.Status().ErrStatus.Details.Causes, 2)
}

func TestApplyRemovesDroppedFieldsNobodyElseOwns(t *testing.T) {
	f := configMapManager("")
	live, err := applyCM(t, f, &api.ConfigMap{}, cfgAB, "alice", false)
	require.NoError(t, err)
	// carol shares b
	live, err = applyCM(t, f, live, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"b":"1"}}`, "carol", false)
	require.NoError(t, err)

	out, err := applyCM(t, f, live, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{}}`, "alice", false)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"b": "1"}, out.Data, "a is gone, b stays for carol")
	assert.Equal(t, []string{`alice/Apply/={"f:data":{}}`, `carol/Apply/={"f:data":{"f:b":{}}}`}, summary(out.ManagedFields))
}

func TestApplyToUntrackedObjectConflictsWithBeforeFirstApply(t *testing.T) {
	f := configMapManager("")
	live := cm(map[string]string{"a": "1"}, nil) // has a UID, no managedFields
	_, err := applyCM(t, f, live, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"2"}}`, "alice", false)
	require.Error(t, err)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a`, err.Error())
}

func TestApplyMergesMapListsByKey(t *testing.T) {
	f := NewFieldManager(typed.ForObject(&api.Pod{}), "v1", "")
	live := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", UID: "u"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "a", Image: "x"}, {Name: "b", Image: "y"}}}}
	f.Update(&api.Pod{}, live, "creator") // no UID yet on the empty live object: tracked
	cfg, err := typed.DecodeValue([]byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b","image":"y"},{"name":"c","image":"z"}]}}`))
	require.NoError(t, err)
	merged, managed, err := f.Apply(live, cfg, "alice", false)
	require.NoError(t, err)
	b, err := json.Marshal(merged.(map[string]any)["spec"].(map[string]any)["containers"])
	require.NoError(t, err)
	assert.JSONEq(t, `[{"name":"a","image":"x","resources":{}},{"name":"b","image":"y","resources":{}},{"name":"c","image":"z"}]`, string(b))
	require.Len(t, managed, 2)
	assert.Equal(t, `{"f:spec":{"f:containers":{"k:{\"name\":\"b\"}":{".":{},"f:image":{},"f:name":{}},"k:{\"name\":\"c\"}":{".":{},"f:image":{},"f:name":{}}}}}`, string(managed[0].FieldsV1.Raw))
}

func TestApplyRefusesBadConfigurations(t *testing.T) {
	f := configMapManager("")
	for _, tc := range []struct{ cfg, msg string }{
		{`{"metadata":{"managedFields":[{"manager":"x"}]}}`, "metadata.managedFields must be nil"},
		{`{"data":{"a":1}}`, ".data.a: expected string, got number"},
		{`{"data":[]}`, ".data: expected map, got list"},
		{`{"nope":1}`, ".nope: field not declared in schema"},
	} {
		cfg, err := typed.DecodeValue([]byte(tc.cfg))
		require.NoError(t, err)
		_, _, err = f.Apply(&api.ConfigMap{}, cfg, "m", false)
		require.Error(t, err, tc.cfg)
		assert.Contains(t, err.Error(), tc.msg)
	}
}
