package handlers_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// managed summarises an object's managedFields as
// "manager/operation/subresource=fieldsV1".
func managed(t *testing.T, r response) []string {
	t.Helper()
	var obj struct {
		Metadata api.ObjectMeta `json:"metadata"`
	}
	r.Decode(t, &obj)
	var out []string
	for _, e := range obj.Metadata.ManagedFields {
		require.Equal(t, "FieldsV1", e.FieldsType)
		require.NotNil(t, e.Time, "every entry has a time")
		out = append(out, e.Manager+"/"+string(e.Operation)+"/"+e.Subresource+"="+string(e.FieldsV1.Raw))
	}
	return out
}

func cmApply(name, data string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n" + data
}

func TestWritesRecordTheirManagerFromTheParameterOrTheUserAgent(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	resp := do(t, "POST", path, "", cmJSON("c1", map[string]string{"a": "1"}))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Equal(t, []string{`Go-http-client/Update/={"f:data":{".":{},"f:a":{}}}`}, managed(t, resp),
		"the User-Agent Go-http-client/1.1 names the manager")

	resp = do(t, "PATCH", path+"/c1?fieldManager=editor", mergePatchType, `{"data":{"a":"2","b":"1"}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, []string{`Go-http-client/Update/={"f:data":{}}`, `editor/Update/={"f:data":{"f:a":{},"f:b":{}}}`}, managed(t, resp),
		"the creator keeps the map it made, not the key another changed")

	resp = do(t, "PUT", path+"/c1?fieldManager=editor", "", cmJSON("c1", map[string]string{"a": "2", "b": "1", "c": "1"}))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, []string{`Go-http-client/Update/={"f:data":{}}`, `editor/Update/={"f:data":{"f:a":{},"f:b":{},"f:c":{}}}`}, managed(t, resp),
		"one Update entry per manager, merged")
}

func TestBadFieldManagerParameters(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	resp := do(t, "POST", path+"?fieldManager=a%01", "", cmJSON("c1", nil))
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, `CreateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\x01": invalid character U+0001 (at position 1)`, resp.Obj(t)["message"])

	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON("c1", nil)).Code)
	resp = do(t, "PATCH", path+"/c1", applyPatchType, cmApply("c1", "  a: \"1\"\n"))
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`, resp.Obj(t)["message"])
	resp = do(t, "PATCH", path+"/c1?force=true", mergePatchType, `{}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, `PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch`, resp.Obj(t)["message"])
}

func TestApplyCreatesAMissingObject(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	resp := do(t, "PATCH", path+"/c1?fieldManager=alice", applyPatchType, cmApply("c1", "  a: \"1\"\n"))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Equal(t, []string{`alice/Apply/={"f:data":{"f:a":{}}}`}, managed(t, resp))
	assert.Equal(t, "1", get(do(t, "GET", path+"/c1", "", "").Obj(t), "data", "a"))

	resp = do(t, "PATCH", path+"/c1?fieldManager=alice", applyPatchType,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c1"},"data":{"a":"1"}}`)
	require.Equal(t, http.StatusOK, resp.Code, "JSON is YAML; an existing object is applied to: %s", resp.Body)
}

func TestApplyConflictsAndForce(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps/c1"
	require.Equal(t, http.StatusCreated, do(t, "PATCH", path+"?fieldManager=alice", applyPatchType, cmApply("c1", "  a: \"1\"\n  b: \"1\"\n")).Code)
	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"?fieldManager=carol", mergePatchType, `{"data":{"b":"2"}}`).Code)

	resp := do(t, "PATCH", path+"?fieldManager=bob", applyPatchType, cmApply("c1", "  a: \"2\"\n  b: \"3\"\n"))
	require.Equal(t, http.StatusConflict, resp.Code, resp.Body)
	st := resp.Obj(t)
	assert.Equal(t, "Conflict", st["reason"])
	assert.Equal(t, "Apply failed with 2 conflicts: conflicts with \"alice\":\n- .data.a\nconflicts with \"carol\" using v1:\n- .data.b", st["message"])
	assert.Equal(t, []any{
		map[string]any{"reason": "FieldManagerConflict", "message": `conflict with "alice"`, "field": ".data.a"},
		map[string]any{"reason": "FieldManagerConflict", "message": `conflict with "carol" using v1`, "field": ".data.b"},
	}, get(st, "details", "causes"))
	assert.Equal(t, "1", get(do(t, "GET", path, "", "").Obj(t), "data", "a"), "nothing was written")

	resp = do(t, "PATCH", path+"?fieldManager=bob&force=true", applyPatchType, cmApply("c1", "  a: \"2\"\n  b: \"3\"\n"))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, []string{`bob/Apply/={"f:data":{"f:a":{},"f:b":{}}}`}, managed(t, resp), "force takes the fields; managers left with nothing go")
}

func TestApplyRemovesWhatTheApplierDroppedUnlessSomeoneElseOwnsIt(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps/c1"
	require.Equal(t, http.StatusCreated, do(t, "PATCH", path+"?fieldManager=alice", applyPatchType, cmApply("c1", "  a: \"1\"\n  b: \"1\"\n  c: \"1\"\n")).Code)
	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"?fieldManager=bob", applyPatchType, cmApply("c1", "  c: \"1\"\n")).Code)

	resp := do(t, "PATCH", path+"?fieldManager=alice", applyPatchType, cmApply("c1", "  a: \"1\"\n"))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, map[string]any{"a": "1", "c": "1"}, resp.Obj(t)["data"], "b goes; c stays, bob owns it")
	// Kubernetes orders the entries by operation, then by time in whole
	// seconds, then by manager: alice's last apply may fall in the second
	// after bob's, so the order is not the test's to pin.
	assert.ElementsMatch(t, []string{`alice/Apply/={"f:data":{"f:a":{}}}`, `bob/Apply/={"f:data":{"f:c":{}}}`}, managed(t, resp))
}

func TestApplyRefusesBadConfigurationsAndStoresNothing(t *testing.T) {
	ns := newNamespace(t)
	pods := "/api/v1/namespaces/" + ns + "/pods/p1?fieldManager=m"
	for _, tc := range []struct {
		name, body string
		code       int
		message    string
	}{
		{"malformed YAML", "apiVersion: v1\nkind: [", http.StatusBadRequest, "error decoding patch: "},
		{"not an object", "- a\n- b\n", http.StatusBadRequest, "must be an object"},
		{"wrong version", "apiVersion: v2\nkind: Pod\nmetadata:\n  name: p1\n", http.StatusBadRequest,
			"Incorrect version specified in apply patch. Specified patch version: v2, expected: v1"},
		{"managedFields set", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\n  managedFields: []\n", http.StatusBadRequest, "metadata.managedFields must be nil"},
		{"unknown field", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\nspec:\n  bogus: 1\n", http.StatusUnprocessableEntity,
			`Pod "p1" is invalid: spec.bogus: field not declared in schema`},
		{"type mismatch", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\nspec:\n  containers: 3\n", http.StatusUnprocessableEntity,
			`Pod "p1" is invalid: spec.containers: expected list, got number`},
		{"list element without its key", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\nspec:\n  containers:\n  - image: nginx\n",
			http.StatusUnprocessableEntity, `spec.containers: element 0: associative list with keys has an element that omits all key fields`},
		{"duplicate key", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\nspec:\n  containers:\n  - name: a\n    image: nginx\n  - name: a\n    image: busybox\n",
			http.StatusUnprocessableEntity, `spec.containers: duplicate entries for key`},
		{"invalid object", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\nspec:\n  containers:\n  - name: a\n", http.StatusUnprocessableEntity, "image"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := do(t, "PATCH", pods, applyPatchType, tc.body)
			require.Equal(t, tc.code, resp.Code, resp.Body)
			assert.Contains(t, resp.Obj(t)["message"], tc.message)
			assert.Equal(t, http.StatusNotFound, do(t, "GET", "/api/v1/namespaces/"+ns+"/pods/p1", "", "").Code, "nothing stored")
		})
	}
}

func TestApplyToStatusAndDryRun(t *testing.T) {
	ns := newNamespace(t)
	pods := "/api/v1/namespaces/" + ns + "/pods"
	status := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\nstatus:\n  phase: Running\n"
	resp := do(t, "PATCH", pods+"/p1/status?fieldManager=kubelet", applyPatchType, status)
	require.Equal(t, http.StatusNotFound, resp.Code, "a status apply does not create: %s", resp.Body)

	resp = do(t, "PATCH", pods+"/p1?fieldManager=m&dryRun=All", applyPatchType,
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\nspec:\n  containers:\n  - name: a\n    image: nginx\n")
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Equal(t, []string{`m/Apply/={"f:spec":{"f:containers":{"k:{\"name\":\"a\"}":{".":{},"f:image":{},"f:name":{}}}}}`}, managed(t, resp))
	require.Equal(t, http.StatusNotFound, do(t, "GET", pods+"/p1", "", "").Code, "a dry run stores nothing")

	require.Equal(t, http.StatusCreated, do(t, "PATCH", pods+"/p1?fieldManager=m", applyPatchType,
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\nspec:\n  containers:\n  - name: a\n    image: nginx\nstatus:\n  phase: Failed\n").Code)
	resp = do(t, "PATCH", pods+"/p1/status?fieldManager=kubelet", applyPatchType, status)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "Running", get(resp.Obj(t), "status", "phase"))
	assert.ElementsMatch(t, []string{
		`m/Apply/={"f:spec":{"f:containers":{"k:{\"name\":\"a\"}":{".":{},"f:image":{},"f:name":{}}}}}`,
		`kubelet/Apply/status={"f:status":{"f:phase":{}}}`,
	}, managed(t, resp), "the main resource's apply owns no status; the status apply has its own entry")
}
