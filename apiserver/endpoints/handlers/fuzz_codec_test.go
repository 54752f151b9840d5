package handlers_test

import (
	"testing"

	"kubeloop/api"
)

// bodyCodecs are the request body formats the apiserver reads.
var bodyCodecs = []string{"application/json", "application/yaml", "application/vnd.kubernetes.protobuf"}

// patchTypes are the four patch content types.
var patchTypes = []string{mergePatchType, jsonPatchType, strategicPatchType, applyPatchType}

// FuzzBodiesByCodec is FuzzCreateAndPatch across every body codec (JSON,
// YAML, protobuf) and every patch type (merge, JSON, strategic merge,
// server-side apply): whatever comes in, no 5xx and nothing stored that
// validation refuses. make chaos runs it for a fixed number of executions;
// plain go test runs the seeds.
func FuzzBodiesByCodec(f *testing.F) {
	cm := &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: api.ObjectMeta{Name: "pb1", Labels: map[string]string{"a": "b"}}, Data: map[string]string{"k": "v"}}
	pb, err := api.EncodeProtobuf(cm)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint8(0), []byte(`{"metadata":{"name":"c1"},"data":{"a":"b"}}`), uint8(0), []byte(`{"data":{"a":null}}`))
	f.Add(uint8(1), []byte("metadata:\n  name: c2\ndata:\n  a: b\n"), uint8(2), []byte(`{"data":{"c":"d"}}`))
	f.Add(uint8(2), pb, uint8(1), []byte(`[{"op":"add","path":"/data/x","value":"y"}]`))
	f.Add(uint8(1), []byte("a: &a [*a]\n"), uint8(3), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c3\n"))
	f.Add(uint8(0), []byte(`{"metadata":{"name":"c4"}}`), uint8(3), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c4\ndata:\n  k: v\n"))
	f.Add(uint8(2), pb[:len(pb)/2], uint8(0), []byte(`{}`))

	const ns = "default"
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	info, _ := api.Builtin().ForResource("", "configmaps")
	f.Fuzz(func(t *testing.T, codec uint8, body []byte, patchType uint8, patch []byte) {
		createThenPatch(t, info, ns, path, bodyCodecs[int(codec)%len(bodyCodecs)], string(body),
			"?fieldManager=fuzz", patchTypes[int(patchType)%len(patchTypes)], string(patch))
	})
}
