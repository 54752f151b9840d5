package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trackedPodJSON is trackedPod as the store writes it, with a second
// entry by a status writer.
func trackedPodJSON(t testing.TB) string {
	pod := trackedPod(t)
	b, err := Marshal(pod)
	require.NoError(t, err)
	return string(b)
}

// plainDecode is the plain path: json.Unmarshal, as Decode words errors.
func plainDecode(data []byte, into Object) error {
	if err := json.Unmarshal(data, into); err != nil {
		return describeJSONError(err)
	}
	return nil
}

// assertDecodesAsJSONUnmarshal decodes doc both ways into pods and
// requires the same pod and the same error.
func assertDecodesAsJSONUnmarshal(t *testing.T, doc string) {
	t.Helper()
	want, got := &Pod{}, &Pod{}
	wantErr, gotErr := plainDecode([]byte(doc), want), Decode([]byte(doc), got)
	if wantErr != nil {
		require.Error(t, gotErr, doc)
		assert.Equal(t, wantErr.Error(), gotErr.Error(), doc)
		return
	}
	require.NoError(t, gotErr, doc)
	assert.Equal(t, want, got, doc)
}

func TestDecodeCutIsJSONUnmarshal(t *testing.T) {
	stored := trackedPodJSON(t)
	entry := `{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2026-12-01T10:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{}},"subresource":"status"}`
	withEntries := func(list string) string {
		return `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","managedFields":` + list + `},"spec":{}}`
	}
	cases := map[string]string{
		"as stored":                    stored,
		"two entries":                  withEntries(`[` + entry + `,` + entry + `]`),
		"managedFields first":          `{"metadata":{"managedFields":[` + entry + `],"name":"p"}}`,
		"managedFields alone":          `{"metadata":{"managedFields":[` + entry + `]}}`,
		"white space around it":        "{ \"metadata\" : {\"name\":\"p\" ,\n\"managedFields\" : [" + entry + "] } }",
		"white space inside an entry":  withEntries(`[{"manager": "a"}]`),
		"an empty entry":               withEntries(`[{}]`),
		"an empty list":                withEntries(`[]`),
		"null":                         withEntries(`null`),
		"a null set":                   withEntries(`[{"manager":"a","fieldsV1":null}]`),
		"a null time":                  withEntries(`[{"manager":"a","time":null}]`),
		"a time with a fraction":       withEntries(`[{"manager":"a","time":"2026-12-01T10:00:00.5Z"}]`),
		"a bad time":                   withEntries(`[{"manager":"a","time":"yesterday"}]`),
		"a time that is a number":      withEntries(`[{"manager":"a","time":5}]`),
		"an escaped manager":           withEntries(`[{"manager":"a\"b"}]`),
		"a unicode manager":            withEntries("[{\"manager\":\"caf\u00e9\"}]"),
		"an unknown member":            withEntries(`[{"manager":"a","owner":"b"}]`),
		"a member twice":               withEntries(`[{"manager":"a","manager":"b"}]`),
		"a member in another case":     withEntries(`[{"Manager":"a"}]`),
		"a set with white space":       withEntries(`[{"fieldsV1":{"f:a": {}}}]`),
		"a set that is not plain":      withEntries(`[{"fieldsV1":{"f:a":[1]}}]`),
		"a set with escapes":           withEntries(`[{"fieldsV1":{"k:{\"name\":\"c\"}":{}}}]`),
		"a number for a string":        withEntries(`[{"manager":1}]`),
		"a list that is not a list":    withEntries(`{"manager":"a"}`),
		"a repeated managedFields":     `{"metadata":{"managedFields":[` + entry + `],"managedFields":[{"manager":"b"}]}}`,
		"a repeated null":              `{"metadata":{"managedFields":[` + entry + `],"managedFields":null}}`,
		"a repeated empty list":        `{"metadata":{"managedFields":[` + entry + `],"managedFields":[]}}`,
		"a folded repeat":              `{"metadata":{"managedFields":[` + entry + `],"MANAGEDFIELDS":null}}`,
		"a folded one first":           `{"metadata":{"managedfields":null,"managedFields":[` + entry + `]}}`,
		"a long s":                     "{\"metadata\":{\"managedField\u017f\":null,\"managedFields\":[" + entry + "]}}",
		"metadata repeated":            `{"metadata":{"managedFields":[` + entry + `]},"metadata":{"name":"q"}}`,
		"metadata repeated with null":  `{"metadata":{"managedFields":[` + entry + `]},"metadata":{"managedFields":null}}`,
		"metadata in another case":     `{"Metadata":{"managedFields":[` + entry + `]}}`,
		"metadata folded after":        `{"metadata":{"managedFields":[` + entry + `]},"METADATA":{"managedFields":null}}`,
		"metadata null":                `{"metadata":null,"spec":{}}`,
		"an escaped key before":        `{"kind":"Pod","a\"b":1,"metadata":{"managedFields":[` + entry + `]}}`,
		"an escaped metadata key":      `{"met\u0061data":{"managedFields":[` + entry + `]}}`,
		"a string that spells it":      `{"kind":"\"metadata\":{\"managedFields\":[]}","metadata":{"managedFields":[` + entry + `]}}`,
		"managedFields in a label":     `{"metadata":{"labels":{"managedFields":"[]"},"managedFields":[` + entry + `]}}`,
		"managedFields in spec":        `{"spec":{"managedFields":[` + entry + `]},"metadata":{"name":"p"}}`,
		"nested values before":         `{"metadata":{"annotations":{"a":"{[\"]}"},"ownerReferences":[{"name":"x","uid":"u"}],"generation":3,"managedFields":[` + entry + `]}}`,
		"a wrong type after":           `{"metadata":{"managedFields":[` + entry + `]},"spec":{"containers":5}}`,
		"a syntax error after":         `{"metadata":{"managedFields":[` + entry + `]},"spec":{"a":}`,
		"a syntax error before":        `{"metadata":{"name":"p",,"managedFields":[` + entry + `]}}`,
		"a missing comma before":       `{"metadata":{"name":"p" "managedFields":[` + entry + `]}}`,
		"garbage after the document":   `{"metadata":{"managedFields":[` + entry + `]}} x`,
		"an unterminated list":         `{"metadata":{"managedFields":[` + entry,
		"an entry that is not closed":  withEntries(`[{"manager":"a"]`),
		"a comma after the last entry": withEntries(`[` + entry + `,]`),
		"a comma after the member":     `{"metadata":{"managedFields":[` + entry + `],}}`,
		"no metadata":                  `{"kind":"Pod"}`,
		"not an object":                `[1,2]`,
		"empty":                        ``,
	}
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) { assertDecodesAsJSONUnmarshal(t, doc) })
	}
}

// The cut runs for what the store holds (not only falls back to the plain
// path, which would make the test above pass with no cut at all).
func TestDecodeCutsStoredManagedFields(t *testing.T) {
	pod := &Pod{}
	require.True(t, decodeCuttingFields([]byte(trackedPodJSON(t)), pod))
	assert.Equal(t, trackedPod(t).ManagedFields, pod.ManagedFields)
	assert.Equal(t, "web-1", pod.Name)
}

// A set decoded by the cut is its own: appending to one never writes
// into the next (they share one allocation).
func TestDecodeCutSetsDoNotShareRoom(t *testing.T) {
	doc := `{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}}},{"fieldsV1":{"f:b":{}}}]}}`
	pod := &Pod{}
	require.True(t, decodeCuttingFields([]byte(doc), pod))
	first := pod.ManagedFields[0].FieldsV1
	require.NoError(t, first.UnmarshalJSON([]byte(`{"f:longer":{}}`)))
	assert.Equal(t, `{"f:b":{}}`, string(pod.ManagedFields[1].FieldsV1.Raw))
}

// Decode into an object that already holds something merges, as
// json.Unmarshal does: the cut leaves such objects to it.
func TestDecodeCutLeavesAFilledObjectToJSONUnmarshal(t *testing.T) {
	doc := trackedPodJSON(t)
	want, got := trackedPod(t), trackedPod(t)
	want.ManagedFields[0].Subresource, got.ManagedFields[0].Subresource = "status", "status"
	require.NoError(t, json.Unmarshal([]byte(doc), want))
	require.NoError(t, Decode([]byte(doc), got))
	assert.Equal(t, want, got)
}

func TestDecodeCutLeavesANilObjectToJSONUnmarshal(t *testing.T) {
	var pod *Pod
	assert.Error(t, Decode([]byte(trackedPodJSON(t)), pod))
}

// FuzzDecodeCut holds Decode to json.Unmarshal on documents around a
// stored pod's managedFields.
func FuzzDecodeCut(f *testing.F) {
	f.Add(trackedPodJSON(f))
	f.Add(`{"metadata":{"managedFields":[{"manager":"a","fieldsV1":{"f:a":{}}}],"managedFields":null}}`)
	f.Add(`{"metadata":{"name":"p","managedFields":[{}]},"metadata":{}}`)
	f.Fuzz(func(t *testing.T, doc string) {
		if !strings.Contains(strings.ToLower(doc), "managedfields") {
			return
		}
		assertDecodesAsJSONUnmarshal(t, doc)
	})
}

func BenchmarkDecodeManagedFields(b *testing.B) {
	doc := []byte(trackedPodJSON(b))
	b.ReportAllocs()
	for b.Loop() {
		if err := Decode(doc, &Pod{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeManagedFieldsPlain is the plain path: json.Unmarshal.
func BenchmarkDecodeManagedFieldsPlain(b *testing.B) {
	doc := []byte(trackedPodJSON(b))
	b.ReportAllocs()
	for b.Loop() {
		if err := json.Unmarshal(doc, &Pod{}); err != nil {
			b.Fatal(err)
		}
	}
}
