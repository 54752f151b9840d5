package serializer_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreateConfigMapFromProtobufBody(t *testing.T) {
	ns := newNamespace(t)
	// k8s\0 + Unknown{typeMeta{v1, ConfigMap}, raw: ConfigMap{metadata{name: pb}, data{k: v}}}
	meta := pbBytes(1, []byte("pb"))
	cm := append(pbBytes(1, meta), pbBytes(2, append(pbBytes(1, []byte("k")), pbBytes(2, []byte("v"))...))...)
	tm := append(pbBytes(1, []byte("v1")), pbBytes(2, []byte("ConfigMap"))...)
	body := append([]byte("k8s\x00"), append(pbBytes(1, tm), pbBytes(2, cm)...)...)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", protobufType, string(body))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Equal(t, map[string]any{"k": "v"}, resp.Obj(t)["data"])
	resp = do(t, "POST", "/apis/apps/v1/namespaces/"+ns+"/replicasets", protobufType, string(body))
	assert.Equal(t, http.StatusUnsupportedMediaType, resp.Code)
}

// pbBytes encodes one length-delimited protobuf field (lengths < 128).
func pbBytes(num int, b []byte) []byte {
	return append([]byte{byte(num<<3 | 2), byte(len(b))}, b...)
}
