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
	// A ConfigMap's body sent to the ReplicaSets' endpoint is refused,
	// as a JSON body of the wrong kind is.
	resp = do(t, "POST", "/apis/apps/v1/namespaces/"+ns+"/replicasets", protobufType, string(body))
	assert.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
}

func TestProtobufBodyThatDoesNotDecodeIs400AndStoresNothing(t *testing.T) {
	ns := newNamespace(t)
	meta := pbBytes(1, []byte("broken"))
	// Field 99 does not exist in ConfigMap: an error, never a silent drop.
	cm := append(pbBytes(1, meta), pbBytes(99, []byte("x"))...)
	tm := append(pbBytes(1, []byte("v1")), pbBytes(2, []byte("ConfigMap"))...)
	body := append([]byte("k8s\x00"), append(pbBytes(1, tm), pbBytes(2, cm)...)...)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", protobufType, string(body))
	require.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
	assert.Contains(t, resp.Body, "could not be decoded as protobuf")
	for _, garbage := range []string{"k8s\x00\xff\xff", "not protobuf", "k8s"} {
		resp = do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", protobufType, garbage)
		assert.Equal(t, http.StatusBadRequest, resp.Code, "%q: %s", garbage, resp.Body)
	}
	resp = do(t, "GET", "/api/v1/namespaces/"+ns+"/configmaps/broken", "", "")
	assert.Equal(t, http.StatusNotFound, resp.Code)
}

// pbBytes encodes one length-delimited protobuf field (lengths < 128).
func pbBytes(num int, b []byte) []byte {
	return append([]byte{byte(num<<3 | 2), byte(len(b))}, b...)
}
