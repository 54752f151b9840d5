package api

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var unstructuredSamples = map[string]string{
	"custom resource": `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns","labels":{"app":"w"},` +
		`"uid":"u-1","resourceVersion":"7","creationTimestamp":"2026-01-02T03:04:05Z","managedFields":[{"manager":"kubectl","operation":"Update",` +
		`"apiVersion":"example.com/v1","time":"2026-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:color":{}}}}]},` +
		`"spec":{"color":"red","replicas":3,"ports":[{"name":"http","port":80}],"ratio":0.5,"on":true,"off":false,"none":null,"empty":{},"list":[]},` +
		`"status":{"replicas":1}}`,
	"white space":      " {\n\t\"kind\" : \"Widget\" ,\r\n \"spec\" : [ 1 , 2 ] , \"metadata\" : { \"name\" : \"w\" } } \n",
	"numbers":          `{"spec":{"a":0,"b":-0,"c":1.0,"d":1e3,"e":-2.5E-3,"f":9223372036854775807,"g":9223372036854775808,"h":-9223372036854775808,"i":123456789012345678901234567890}}`,
	"unicode":          `{"spec":{"héllo":"wörld ✓","emoji":"😀"}}`,
	"html in a string": `{"spec":{"a":"<b> & </b>","b":"\u003c"}}`,
	"escapes":          `{"spec":{"a":"line\nbreak","b":"quote\"d","c":"\u00e9\ud83d\ude00"}}`,
	"escaped key":      `{"spec":{"a\"b":1}}`,
	"lone surrogate":   `{"spec":{"a":"\ud83d"}}`,
	"low surrogate":    `{"spec":{"a":"\ude00\ud83d"}}`,
	"bad escape":       `{"spec":{"a":"\x"}}`,
	"list-map fields": `{"kind":"Widget","metadata":{"name":"w","managedFields":[{"manager":"m","operation":"Update","fieldsType":"FieldsV1",` +
		`"fieldsV1":{"f:spec":{"f:ports":{"k:{\"name\":\"http\"}":{".":{},"f:name":{}}}}}}]},"spec":{"ports":[{"name":"http"}],"s":"a\\b\/c\t\u003c"}}`,
	"null metadata":      `{"kind":"Widget","metadata":null}`,
	"null type fields":   `{"apiVersion":null,"kind":null,"spec":1}`,
	"no metadata":        `{"spec":{"x":1}}`,
	"empty":              `{}`,
	"deep":               `{"spec":{"a":{"b":{"c":{"d":[[[[{"e":[1,[2,[3]]]}]]]]}}}}}`,
	"duplicate":          `{"spec":{"a":1,"a":2}}`,
	"duplicate top":      `{"spec":1,"spec":2}`,
	"duplicate kind":     `{"kind":"A","kind":"B"}`,
	"duplicate metadata": `{"metadata":{"name":"a"},"metadata":{"name":"b"}}`,
	"unknown metadata":   `{"metadata":{"name":"a","bogus":1}}`,
	"kind not a string":  `{"kind":1}`,
	"metadata wrong":     `{"metadata":{"name":1}}`,
	"bad syntax":         `{"spec":{"a":1,}}`,
	"leading zero":       `{"spec":{"a":01}}`,
	"trailing data":      `{"spec":1} {}`,
	"not an object":      `[1,2]`,
	"huge float":         `{"spec":{"a":1e999}}`,
	"control character":  "{\"spec\":{\"a\":\"x\x01y\"}}",
	"invalid utf-8":      "{\"spec\":{\"a\":\"\xff\"}}",
	"content apiVersion": `{"spec":{"apiVersion":"x"}}`,
	"truncated":          `{"spec":{"a":[1,2`,
}

// The fast path must decode and encode exactly as the plain one, or give
// up; and strict decoding must report exactly what the token walk does.
func TestUnstructuredFastIsThePlainPath(t *testing.T) {
	for name, body := range unstructuredSamples {
		t.Run(name, func(t *testing.T) { checkUnstructuredFast(t, []byte(body)) })
	}
}

func checkUnstructuredFast(t *testing.T, data []byte) {
	var plain Unstructured
	plainErr := plain.unmarshalPlain(data)

	var fast Unstructured
	if fast.decodeFast(data) {
		require.NoError(t, plainErr, "the fast path took what the plain path refuses")
		assert.Equal(t, plain, fast)
	}
	var viaDecode Unstructured
	decodeErr := Decode(data, &viaDecode)
	assert.Equal(t, plainErr != nil, decodeErr != nil, "Decode: %v, plain: %v", decodeErr, plainErr)
	if plainErr == nil {
		assert.Equal(t, plain, viaDecode)
	}

	var walked Unstructured
	wantUnknown, wantDup, wantErr := walkStrictWith(data, &walked, unstructuredMembers)
	var strict Unstructured
	gotUnknown, gotDup, gotErr := DecodeStrictUnstructured(data, &strict)
	assert.Equal(t, wantUnknown, gotUnknown)
	assert.Equal(t, wantDup, gotDup)
	assert.Equal(t, wantErr != nil, gotErr != nil, "strict: %v, walk: %v", gotErr, wantErr)
	if wantErr == nil {
		assert.Equal(t, walked, strict)
	}

	if plainErr != nil {
		return
	}
	want, wantErr := plain.marshalPlain()
	got, gotErr := plain.MarshalJSON()
	assert.Equal(t, wantErr, gotErr)
	assert.Equal(t, string(want), string(got))
	viaMarshal, err := Marshal(&plain)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(viaMarshal))
	if b, ok := plain.marshalFast(); ok {
		assert.Equal(t, string(want), string(b))
	}
}

// Content that is not what JSON decodes to (an int, a struct) is written by
// encoding/json, as before.
func TestUnstructuredFastGivesUpOnOtherTypes(t *testing.T) {
	u := Unstructured{TypeMeta: TypeMeta{Kind: "Widget"}, Content: map[string]any{
		"spec": map[string]any{"n": 3, "s": struct{ A int }{1}, "l": []string{"x"}}}}
	_, ok := u.marshalFast()
	assert.False(t, ok)
	want, err := json.Marshal(map[string]any{"kind": "Widget", "metadata": &u.ObjectMeta, "spec": u.Content["spec"]})
	require.NoError(t, err)
	got, err := u.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}

func FuzzUnstructuredFast(f *testing.F) {
	for _, body := range unstructuredSamples {
		f.Add([]byte(body))
	}
	f.Fuzz(checkUnstructuredFast)
}

// The bodies a cluster writes take the fast path both ways; without this a
// fast path that always gave up would pass the test above.
func TestUnstructuredFastTakesPlainBodies(t *testing.T) {
	for _, name := range []string{"custom resource", "white space", "numbers", "unicode", "deep", "empty", "null metadata", "null type fields",
		"escapes", "escaped key", "html in a string", "list-map fields"} {
		var u Unstructured
		require.True(t, u.decodeFast([]byte(unstructuredSamples[name])), name)
		_, ok := u.marshalFast()
		require.True(t, ok, name)
	}
}
