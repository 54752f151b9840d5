package secret_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestStringDataIsMergedIntoDataAndNeverStored(t *testing.T) {
	path := secretsPath(t)
	body := `{"metadata":{"name":"s"},"data":{"a":"` + b64("old") + `","b":"` + b64("kept") + `"},"stringData":{"a":"new","c":"plain"}}`
	resp := do(t, "POST", path, "", body)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	for _, s := range []map[string]any{resp.Obj(t), do(t, "GET", path+"/s", "", "").Obj(t)} {
		assert.Equal(t, map[string]any{"a": b64("new"), "b": b64("kept"), "c": b64("plain")}, s["data"])
		assert.NotContains(t, s, "stringData")
		assert.Equal(t, "Opaque", s["type"])
		assert.NotContains(t, s["metadata"], "generation", "a Secret has no spec")
	}
	// stringData in an update overrides too.
	resp = do(t, "PATCH", path+"/s", mergePatch, `{"stringData":{"b":"changed"}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, b64("changed"), get(resp.Obj(t), "data", "b"))
}

func TestTypeIsImmutable(t *testing.T) {
	path := secretsPath(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", `{"metadata":{"name":"s"},"data":{"a":"eA=="}}`).Code)
	resp := do(t, "PATCH", path+"/s", mergePatch, `{"type":"kubernetes.io/basic-auth","data":{"username":"eA=="}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, `Invalid value: "kubernetes.io/basic-auth": field is immutable`, causes(t, resp)["type"])
}

func TestImmutableSecretKeepsItsData(t *testing.T) {
	path := secretsPath(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", `{"metadata":{"name":"s"},"immutable":true,"data":{"a":"eA=="}}`).Code)
	resp := do(t, "PATCH", path+"/s", mergePatch, `{"data":{"a":"eQ=="}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, "Forbidden: field is immutable when `immutable` is set", causes(t, resp)["data"])
	resp = do(t, "PATCH", path+"/s", mergePatch, `{"immutable":false}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, "Forbidden: field is immutable when `immutable` is set", causes(t, resp)["immutable"])
	// Metadata may still change.
	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"/s", mergePatch, `{"metadata":{"labels":{"a":"b"}}}`).Code)
}

func TestValidationOfKeysSizeAndTypes(t *testing.T) {
	big := strings.Repeat("x", 1024*1024+1)
	for _, tc := range []struct{ name, body, field, message string }{
		{"bad key", `{"metadata":{"name":"s"},"stringData":{"a b":"x"}}`, "data[a b]", `Invalid value: "a b": a valid config key must consist of alphanumeric characters`},
		{"too big", `{"metadata":{"name":"s"},"stringData":{"a":"` + big + `"}}`, "data", "Too long: must have at most 1048576 bytes"},
		{"token without account", `{"metadata":{"name":"s"},"type":"kubernetes.io/service-account-token"}`,
			"metadata.annotations[kubernetes.io/service-account.name]", "Required value"},
		{"docker config missing", `{"metadata":{"name":"s"},"type":"kubernetes.io/dockerconfigjson"}`, "data[.dockerconfigjson]", "Required value"},
		{"docker config not JSON", `{"metadata":{"name":"s"},"type":"kubernetes.io/dockerconfigjson","stringData":{".dockerconfigjson":"nope"}}`,
			"data[.dockerconfigjson]", `Invalid value: "<secret contents redacted>": invalid character`},
		{"tls without key", `{"metadata":{"name":"s"},"type":"kubernetes.io/tls","stringData":{"tls.crt":"c"}}`, "data[tls.key]", "Required value"},
		{"basic auth with neither", `{"metadata":{"name":"s"},"type":"kubernetes.io/basic-auth"}`, "data[username]", "Required value"},
		{"ssh without key", `{"metadata":{"name":"s"},"type":"kubernetes.io/ssh-auth","stringData":{"ssh-privatekey":""}}`, "data[ssh-privatekey]", "Required value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := secretsPath(t)
			resp := do(t, "POST", path, "", tc.body)
			require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
			assert.Equal(t, "Secret", get(resp.Obj(t), "details", "kind"))
			assert.Contains(t, causes(t, resp)[tc.field], tc.message, resp.Body)
			assert.NotContains(t, resp.Body, "nope", "secret contents never appear in errors")
			assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/s", "", "").Code)
		})
	}
}

func TestWellFormedTypedSecretsAreAccepted(t *testing.T) {
	path := secretsPath(t)
	for _, body := range []string{
		`{"metadata":{"name":"reg"},"type":"kubernetes.io/dockerconfigjson","stringData":{".dockerconfigjson":"{\"auths\":{}}"}}`,
		`{"metadata":{"name":"tok","annotations":{"kubernetes.io/service-account.name":"default"}},"type":"kubernetes.io/service-account-token"}`,
		`{"metadata":{"name":"tls"},"type":"kubernetes.io/tls","stringData":{"tls.crt":"c","tls.key":"k"}}`,
		`{"metadata":{"name":"basic"},"type":"kubernetes.io/basic-auth","stringData":{"password":""}}`,
	} {
		resp := do(t, "POST", path, "", body)
		assert.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	}
	list := do(t, "GET", path+"?fieldSelector=type%3Dkubernetes.io%2Ftls", "", "").Obj(t)
	items := list["items"].([]any)
	require.Len(t, items, 1)
	assert.Equal(t, "tls", get(items[0].(map[string]any), "metadata", "name"))

	resp := do(t, "GET", path+"?fieldSelector=data.a%3Db", "", "")
	require.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
	assert.Equal(t, "field label not supported: data.a", resp.Obj(t)["message"])
}
