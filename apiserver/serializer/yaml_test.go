package serializer_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const yamlConfigMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: from-yaml
  labels:
    app: web
data:
  greeting: hello
  count: "3"
`

func TestCreateAndUpdateFromYAMLBody(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	resp := do(t, "POST", path, "application/yaml", yamlConfigMap)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"), "answers stay JSON")
	obj := resp.Obj(t)
	assert.Equal(t, map[string]any{"greeting": "hello", "count": "3"}, obj["data"])
	assert.Equal(t, "web", get(obj, "metadata", "labels", "app"))

	updated := yamlConfigMap + "  added: later\n"
	resp = do(t, "PUT", path+"/from-yaml", "application/yaml; charset=utf-8", updated)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	got := do(t, "GET", path+"/from-yaml", "", "").Obj(t)
	assert.Equal(t, "later", get(got, "data", "added"))
}

func TestYAMLBodyWithRepeatedKeyIsRefusedWhenStrictAndWarnedOtherwise(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	body := "metadata:\n  name: twice\ndata:\n  a: one\n  a: two\n"
	resp := do(t, "POST", path+"?fieldValidation=Strict", "application/yaml", body)
	require.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
	assert.Contains(t, resp.Obj(t)["message"], `strict decoding error: `)
	assert.Contains(t, resp.Obj(t)["message"], `"a" already set in map`)
	assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/twice", "", "").Code, "nothing was stored")

	resp = do(t, "POST", path, "application/yaml", body)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Contains(t, resp.Header.Get("Warning"), `already set in map`)
	assert.Equal(t, "two", get(resp.Obj(t), "data", "a"), "the later value wins, as in YAMLToJSON")
}

func TestYAMLBodyWithUnknownFieldIsRefusedWhenStrict(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps?fieldValidation=Strict", "application/yaml",
		"metadata:\n  name: x\nspec:\n  nope: 1\n")
	require.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
	assert.Equal(t, `strict decoding error: unknown field "spec"`, resp.Obj(t)["message"])
}

func TestMalformedYAMLBodyIsBadRequest(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	for name, body := range map[string]string{
		"syntax":    "metadata: [unclosed\n",
		"not a map": "- just\n- a list\n",
		"type":      "metadata:\n  name: y\ndata: notamap\n",
	} {
		t.Run(name, func(t *testing.T) {
			resp := do(t, "POST", path, "application/yaml", body)
			require.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
			assert.Equal(t, "BadRequest", resp.Obj(t)["reason"])
		})
	}
	list := do(t, "GET", path, "", "").Obj(t)
	assert.Empty(t, list["items"], "nothing was stored")
}
