package api

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// The create path's codec costs, one benchmark per step the apiserver
// takes for every create: the strict decode of the request body, then the
// two encodings of the stored object (for etcd and for the answer), in
// JSON and in protobuf. Each has encoding/json beside it where it is the
// reference; apiserver/bench_test.go:BenchmarkCreateConfigMaps is the
// whole create.

// createConfigMapJSON is the body BenchmarkCreateConfigMaps's client sends.
func createConfigMapJSON(t testing.TB) []byte {
	b, err := json.Marshal(&ConfigMap{TypeMeta: TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: ObjectMeta{Name: "cm-1"}, Data: map[string]string{"k": "v"}})
	require.NoError(t, err)
	return b
}

// createPodJSON is a pod as a controller or kubectl sends it: the
// manifest of testdata/pod.yaml without its status.
func createPodJSON(t testing.TB) []byte {
	raw, err := os.ReadFile("testdata/pod.yaml")
	require.NoError(t, err)
	pod := &Pod{}
	require.NoError(t, yaml.UnmarshalStrict(raw, pod))
	pod.Status = PodStatus{}
	b, err := json.Marshal(pod)
	require.NoError(t, err)
	return b
}

// storedAsCreated is obj as the apiserver stores and answers it after a
// create: uid, resourceVersion, creationTimestamp and one managedFields
// entry.
func storedAsCreated(obj Object, fields string) {
	m := obj.GetObjectMeta()
	now := NewTime(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	m.Namespace, m.UID, m.ResourceVersion, m.CreationTimestamp = "default", "0b0f9a1e-5c2b-4d8e-9a53-2f1d1c7e0001", "12345", now
	m.ManagedFields = []ManagedFieldsEntry{{Manager: "kubectl-client-side-apply", Operation: "Update", APIVersion: "v1",
		Time: &now, FieldsType: "FieldsV1", FieldsV1: &FieldsV1{Raw: []byte(fields)}}}
}

func storedConfigMap(t testing.TB) *ConfigMap {
	cm := &ConfigMap{}
	require.NoError(t, json.Unmarshal(createConfigMapJSON(t), cm))
	storedAsCreated(cm, `{"f:data":{".":{},"f:k":{}}}`)
	return cm
}

func storedPod(t testing.TB) *Pod {
	pod := &Pod{}
	require.NoError(t, json.Unmarshal(createPodJSON(t), pod))
	storedAsCreated(pod, `{"f:metadata":{"f:labels":{".":{},"f:app":{},"f:tier":{}}},"f:spec":{"f:containers":{`+
		`"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{}},"k:{\"name\":\"sidecar\"}":{".":{},"f:image":{},"f:name":{}}}}}`)
	return pod
}

func BenchmarkDecodeStrictCreate(b *testing.B) {
	for _, c := range []struct {
		name string
		body []byte
		into func() Object
	}{
		{"configmap", createConfigMapJSON(b), func() Object { return &ConfigMap{} }},
		{"pod", createPodJSON(b), func() Object { return &Pod{} }},
	} {
		b.Run(c.name+"/kubeloop", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if unknown, dups, err := DecodeStrict(c.body, c.into()); err != nil || unknown != nil || dups != nil {
					b.Fatal(unknown, dups, err)
				}
			}
		})
		// The reference: a decode that checks nothing.
		b.Run(c.name+"/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := json.Unmarshal(c.body, c.into()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncodeCreate(b *testing.B) {
	for _, c := range []struct {
		name string
		obj  Object
	}{
		{"configmap", storedConfigMap(b)},
		{"pod", storedPod(b)},
	} {
		b.Run(c.name+"/json/kubeloop", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Encode(c.obj); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/json/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(c.obj); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/protobuf/kubeloop", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := EncodeProtobuf(c.obj); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReasonForError is what every handler's logging and metrics ask
// of a request's error, which is nil for almost every request.
func BenchmarkReasonForError(b *testing.B) {
	for _, c := range []struct {
		name string
		err  error
	}{{"nil", nil}, {"status", NewNotFound(GroupResource{Resource: "pods"}, "a")}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = ReasonForError(c.err)
			}
		})
	}
}

// BenchmarkDecodeStored is Decode (fieldValidation=Ignore) of what etcd
// holds: a tracked pod and a created ConfigMap, as a Get or a watch
// cache reads them.
func BenchmarkDecodeStored(b *testing.B) {
	cm, err := json.Marshal(storedConfigMap(b))
	require.NoError(b, err)
	for _, c := range []struct {
		name string
		body []byte
		into func() Object
	}{
		{"configmap", cm, func() Object { return &ConfigMap{} }},
		{"pod-tracked", []byte(trackedPodJSON(b)), func() Object { return &Pod{} }},
	} {
		b.Run(c.name+"/kubeloop", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Decode(c.body, c.into()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := json.Unmarshal(c.body, c.into()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
