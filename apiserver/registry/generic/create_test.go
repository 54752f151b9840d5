package generic_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreateSetsServerOwnedMetadataAndIgnoresClientValues(t *testing.T) {
	ns := newNamespace(t)
	body := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","uid":"mine","creationTimestamp":"2001-01-01T00:00:00Z","generation":7},"data":{"a":"b"}}`
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", body)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	obj := resp.Obj(t)
	assert.Equal(t, "ConfigMap", obj["kind"])
	assert.Equal(t, "v1", obj["apiVersion"])
	assert.NotEqual(t, "mine", get(obj, "metadata", "uid"))
	assert.Len(t, get(obj, "metadata", "uid"), 36)
	assert.NotEqual(t, "2001-01-01T00:00:00Z", get(obj, "metadata", "creationTimestamp"))
	assert.Nil(t, get(obj, "metadata", "generation"), "kinds without spec have no generation")
	assert.NotEmpty(t, get(obj, "metadata", "resourceVersion"))
	assert.Equal(t, ns, get(obj, "metadata", "namespace"))

	got := do(t, "GET", "/api/v1/namespaces/"+ns+"/configmaps/cm1", "", "")
	require.Equal(t, http.StatusOK, got.Code)
	assert.Equal(t, get(obj, "metadata", "uid"), get(got.Obj(t), "metadata", "uid"))
}

func TestCreateWithGenerateNameAppendsFiveCharacters(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", `{"metadata":{"generateName":"web-"}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	name := get(resp.Obj(t), "metadata", "name").(string)
	assert.Regexp(t, `^web-[a-z0-9]{5}$`, name)
}
