package handlers_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const unknownFieldPod = `{"metadata":{"name":"p1"},"spec":{"foo":1,"containers":[{"name":"c","image":"i","bar":2}]}}`

func TestFieldValidationStrictRejectsUnknownFieldsOnCreate(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/pods?fieldValidation=Strict", "", unknownFieldPod)
	require.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
	assert.Equal(t, `strict decoding error: unknown field "spec.foo", unknown field "spec.containers[0].bar"`, resp.Obj(t)["message"])
}

func TestFieldValidationStrictRejectsDuplicateFields(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps?fieldValidation=Strict", "", `{"metadata":{"name":"a","name":"b"}}`)
	require.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
	assert.Equal(t, `strict decoding error: duplicate field "metadata.name"`, resp.Obj(t)["message"])
}

func TestFieldValidationWarnIsTheDefault(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/pods", "", unknownFieldPod)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Equal(t, []string{
		`299 - "unknown field \"spec.foo\""`,
		`299 - "unknown field \"spec.containers[0].bar\""`,
	}, resp.Header.Values("Warning"))
}

func TestFieldValidationIgnoreDropsSilently(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/pods?fieldValidation=Ignore", "", unknownFieldPod)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Empty(t, resp.Header.Values("Warning"))
	assert.Nil(t, get(resp.Obj(t), "spec", "foo"))
}

func TestFieldValidationStrictPatchIsInvalid(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", cmJSON("cm1", nil))
	resp := do(t, "PATCH", path+"/cm1?fieldValidation=Strict", mergePatchType, `{"spec":{"foo":1}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Contains(t, resp.Obj(t)["message"], `unknown field "spec"`)
}

func TestFieldValidationBogusIsInvalid(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps?fieldValidation=Bogus", "", cmJSON("cm1", nil))
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Contains(t, resp.Obj(t)["message"], `fieldValidation: Unsupported value: "Bogus"`)
}
