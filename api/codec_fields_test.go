package api

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trackedPod is a pod as the apiserver stores it after a create by one
// manager and a status write by another.
func trackedPod(t testing.TB) *Pod {
	pod := &Pod{}
	require.NoError(t, json.Unmarshal(runningPodJSON(t), pod))
	now := NewTime(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	var spec []byte
	spec = append(spec, `{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{`...)
	for i := range 3 {
		if i > 0 {
			spec = append(spec, ',')
		}
		spec = fmt.Appendf(spec, `"k:{\"name\":\"c%d\"}":{".":{},"f:env":{".":{},"k:{\"name\":\"A\"}":{".":{},"f:name":{},"f:value":{}},`+
			`"k:{\"name\":\"B\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},`+
			`"f:ports":{".":{},"k:{\"containerPort\":%d,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}}},`+
			`"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{},`+
			`"f:volumeMounts":{".":{},"k:{\"mountPath\":\"/data/%d\"}":{".":{},"f:mountPath":{},"f:name":{}}}}`, i, 8080+i, i)
	}
	spec = append(spec, `}}}`...)
	pod.ManagedFields = append([]ManagedFieldsEntry{{Manager: "kubectl", Operation: "Update", APIVersion: "v1",
		Time: &now, FieldsType: "FieldsV1", FieldsV1: &FieldsV1{Raw: spec}}}, pod.ManagedFields...)
	return pod
}

func TestMarshalSplicedIsJSONMarshal(t *testing.T) {
	cases := map[string]func(p *Pod){
		"as stored": func(*Pod) {},
		"an entry without a set": func(p *Pod) {
			p.ManagedFields = append(p.ManagedFields, ManagedFieldsEntry{Manager: "x", Operation: "Update", FieldsType: "FieldsV1"})
		},
		"an entry with a null set": func(p *Pod) {
			p.ManagedFields = append(p.ManagedFields, ManagedFieldsEntry{Manager: "y", FieldsV1: &FieldsV1{}})
		},
		"metadata that spells the marks": func(p *Pod) {
			p.Labels["managedFields"] = `"fieldsV1":0`
			p.Annotations = map[string]string{`"managedFields":[`: `"fieldsV1":0,`}
			p.ManagedFields[0].Manager = `"fieldsV1":0`
		},
		"spec that spells the marks": func(p *Pod) {
			p.Spec.Containers[0].Args = []string{`"managedFields":[{"fieldsV1":0}]`}
		},
		"a set with white space":   func(p *Pod) { p.ManagedFields[0].FieldsV1.Raw = []byte(`{"f:spec": {}}`) },
		"a set to escape for HTML": func(p *Pod) { p.ManagedFields[0].FieldsV1.Raw = []byte(`{"k:{\"name\":\"<a&b>\"}":{}}`) },
		"a set with a unicode key": func(p *Pod) { p.ManagedFields[0].FieldsV1.Raw = []byte("{\"f:caf\u00e9\":{}}") },
		"a set with a line separator": func(p *Pod) {
			p.ManagedFields[0].FieldsV1.Raw = []byte("{\"f:a\u2028\":{}}")
		},
		"a set that is not an object of objects": func(p *Pod) { p.ManagedFields[0].FieldsV1.Raw = []byte(`{"f:a":[1, 2]}`) },
		"an empty set":                           func(p *Pod) { p.ManagedFields[0].FieldsV1.Raw = []byte(`{}`) },
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			pod := trackedPod(t)
			change(pod)
			want, err := json.Marshal(pod)
			require.NoError(t, err)
			got, err := Marshal(pod)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
}

func TestMarshalSplicedRefusesWhatJSONMarshalRefuses(t *testing.T) {
	for _, raw := range []string{`{"f:a":`, `{"f:a":{}}}`, `nope`} {
		pod := trackedPod(t)
		pod.ManagedFields[0].FieldsV1.Raw = []byte(raw)
		_, want := json.Marshal(pod)
		_, got := Marshal(pod)
		require.Error(t, want, raw)
		assert.Equal(t, want.Error(), got.Error(), raw)
	}
}

func TestMarshalSplicedLeavesTheObjectAsItWas(t *testing.T) {
	pod := trackedPod(t)
	before := pod.DeepCopy()
	_, err := Marshal(pod)
	require.NoError(t, err)
	assert.Equal(t, before, pod)
}

func TestPlainFieldsJSON(t *testing.T) {
	for raw, want := range map[string]bool{
		`{}`: true, `{"f:a":{}}`: true, `{"f:a":{},"f:b":{".":{},"k:{\"x\":1}":{}}}`: true,
		`{"a\\b":{}}`: true,
		``:            false, `{`: false, `{}}`: false, `{} `: false, `{"a":{}`: false, `{"a":{},}`: false,
		`{"a":1}`: false, `{"a" :{}}`: false, `{"a\u0041":{}}`: false, `{"a":{}}{}`: false, `[]`: false,
	} {
		assert.Equal(t, want, plainFieldsJSON([]byte(raw)), raw)
	}
}

func BenchmarkEncodeManagedFields(b *testing.B) {
	pod := trackedPod(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Marshal(pod); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodeManagedFieldsPlain is the plain path: json.Marshal.
func BenchmarkEncodeManagedFieldsPlain(b *testing.B) {
	pod := trackedPod(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(pod); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlainFieldsJSON is the check every encode and decode of a
// tracked pod makes of each set (about 1,900 bytes here).
func BenchmarkPlainFieldsJSON(b *testing.B) {
	raw := trackedPod(b).ManagedFields[0].FieldsV1.Raw
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if !plainFieldsJSON(raw) {
			b.Fatal("not plain")
		}
	}
}

// FuzzPlainFieldsJSON: a set plainFieldsJSON passes is one encoding/json
// writes back byte for byte (what lets Marshal copy it).
func FuzzPlainFieldsJSON(f *testing.F) {
	f.Add(string(trackedPod(f).ManagedFields[0].FieldsV1.Raw))
	f.Add(`{"k:{\"name\":\"a\\\\b\"}":{".":{},"f:x":{}},"f:y":{}}`)
	f.Add(`{"f:a":{},"f:b<":{}}`)
	f.Fuzz(func(t *testing.T, raw string) {
		if !plainFieldsJSON([]byte(raw)) {
			return
		}
		out, err := json.Marshal(FieldsV1{Raw: []byte(raw)})
		require.NoError(t, err, raw)
		assert.Equal(t, raw, string(out))
	})
}
