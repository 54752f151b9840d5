package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
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
		spec = fmt.Appendf(spec, `"k:{\"name\":\"c%d\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":%d,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}`, i, 8080+i)
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

func TestDecodeNewIsDecode(t *testing.T) {
	stored, err := json.Marshal(trackedPod(t))
	require.NoError(t, err)
	s := string(stored)
	cases := map[string]string{
		"as stored":                   s,
		"indented":                    indent(t, stored),
		"no sets":                     `{"kind":"Pod","metadata":{"name":"a","managedFields":[{"manager":"m"}]}}`,
		"a null set":                  `{"metadata":{"managedFields":[{"manager":"m","fieldsV1":null},{"fieldsV1":{"f:a":{}}}]}}`,
		"a null entry":                `{"metadata":{"managedFields":[null,{"fieldsV1":{"f:a":{}}}]}}`,
		"null metadata":               `{"metadata":null}`,
		"set before the rest":         `{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}},"manager":"m"}],"name":"x"},"spec":{"nodeName":"n"}}`,
		"a set with white space":      `{"metadata":{"managedFields":[{"fieldsV1":{"f:a": {}}}]}}`,
		"a set that is not objects":   `{"metadata":{"managedFields":[{"fieldsV1":{"f:a":[1]}}]}}`,
		"a set that is a string":      `{"metadata":{"managedFields":[{"fieldsV1":"x"}]}}`,
		"a second fieldsV1":           `{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}},"fieldsV1":{"f:b":{}}}]}}`,
		"a folded fieldsV1":           `{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}},"FieldsV1":{"f:b":{}}}]}}`,
		"a folded managedFields":      `{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}}}],"ManagedFields":[{"fieldsV1":{"f:b":{}}}]}}`,
		"a second metadata":           `{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}}}]},"metadata":{"name":"b"}}`,
		"a folded metadata":           `{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}}}]},"Metadata":{"managedFields":[]}}`,
		"an escaped key":              `{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}}}],"m\u0061nagedFields":[{"fieldsV1":{"f:b":{}}}]}}`,
		"marks in strings":            `{"metadata":{"name":"\"managedFields\":[","labels":{"fieldsV1":"{\"f:a\":{}}"},"managedFields":[{"manager":"\"fieldsV1\":{}","fieldsV1":{"f:a":{}}}]}}`,
		"marks in a list of any":      `{"kind":"ControllerRevision","metadata":{"name":"r"},"data":{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}}}]}}}`,
		"invalid after the sets":      `{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}}}]},"spec":{"nodeName":}}`,
		"a wrong type after the sets": `{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}}}]},"spec":{"nodeName":1}}`,
		"trailing bytes":              `{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}}}]}} x`,
		"an invalid set":              `{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}}]}}`,
		"an escape before the set":    `{"metadata":{"name":"a\\","managedFields":[{"fieldsV1":{"f:a":{}}}]}}`,
	}
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) {
			want, got := &Pod{}, &Pod{}
			wantErr := Decode([]byte(doc), want)
			gotErr := DecodeNew([]byte(doc), got)
			if wantErr != nil {
				require.Error(t, gotErr)
				assert.Equal(t, wantErr.Error(), gotErr.Error())
				return
			}
			require.NoError(t, gotErr)
			assert.Equal(t, want, got)
		})
	}
}

func TestDecodeNewCutsTheStoredSets(t *testing.T) {
	stored, err := json.Marshal(trackedPod(t))
	require.NoError(t, err)
	spans, ok := fieldsSpans(stored)
	require.True(t, ok)
	assert.Len(t, spans, 2, "both entries' sets take the fast path")
}

func TestDecodeNewCopiesTheSets(t *testing.T) {
	stored, err := json.Marshal(trackedPod(t))
	require.NoError(t, err)
	pod := &Pod{}
	require.NoError(t, DecodeNew(stored, pod))
	want := slices.Clone(pod.ManagedFields[0].FieldsV1.Raw)
	clear(stored)
	assert.Equal(t, want, pod.ManagedFields[0].FieldsV1.Raw, "the set does not alias the document")
}

func indent(t *testing.T, b []byte) string {
	var out bytes.Buffer
	require.NoError(t, json.Indent(&out, b, "", "  "))
	return out.String()
}

func BenchmarkDecodeManagedFields(b *testing.B) {
	stored, err := json.Marshal(trackedPod(b))
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if err := DecodeNew(stored, &Pod{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeManagedFieldsPlain is the plain path: Decode.
func BenchmarkDecodeManagedFieldsPlain(b *testing.B) {
	stored, err := json.Marshal(trackedPod(b))
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if err := Decode(stored, &Pod{}); err != nil {
			b.Fatal(err)
		}
	}
}
