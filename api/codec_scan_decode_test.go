package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

func TestDecodeCleanDecodesWhatClientsSendAsEncodingJSONDoes(t *testing.T) {
	bodies := map[string]struct {
		body []byte
		into func() Object
	}{
		"configmap create": {createConfigMapJSON(t), func() Object { return &ConfigMap{} }},
		"pod create":       {createPodJSON(t), func() Object { return &Pod{} }},
		"pod status":       {runningPodJSON(t), func() Object { return &Pod{} }},
	}
	paths, err := filepath.Glob("testdata/*.yaml")
	require.NoError(t, err)
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		require.NoError(t, err)
		data, err := yaml.YAMLToJSON(raw)
		require.NoError(t, err)
		var tm TypeMeta
		require.NoError(t, json.Unmarshal(data, &tm))
		group, _, _ := strings.Cut(tm.APIVersion, "/")
		if !strings.Contains(tm.APIVersion, "/") {
			group = ""
		}
		info, ok := Builtin().ForKind(group, tm.Kind)
		if !ok {
			continue // DeleteOptions, Scale, Binding: not kinds of the registry
		}
		bodies[p] = struct {
			body []byte
			into func() Object
		}{data, info.New}
	}
	for name, c := range bodies {
		t.Run(name, func(t *testing.T) {
			got, want := c.into(), c.into()
			require.True(t, decodeClean(c.body, reflect.ValueOf(got).Elem()), "the one-pass decoder gave up")
			require.NoError(t, json.Unmarshal(c.body, want))
			assert.Equal(t, want, got)
		})
	}
}

// Every body either decodes in one pass to json.Unmarshal's value, or is
// left (zero) to the plain path; a body json.Unmarshal refuses is always
// left.
func TestDecodeCleanAgreesWithEncodingJSONOrGivesUp(t *testing.T) {
	cases := map[string]struct {
		body     string
		onePass  bool // whether the one-pass decoder takes it
		jsonFail bool // whether json.Unmarshal refuses it
	}{
		"escapes":             {`{"data":{"a":"x\n\t\"\\\/\b\f\r\u00e9\u4e16"}}`, true, false},
		"html escapes":        {`{"data":{"a":"\u003cb\u003e \u0026"}}`, true, false},
		"a surrogate pair":    {`{"data":{"a":"\ud83d\ude00"}}`, true, false},
		"a lone surrogate":    {`{"data":{"a":"\ud83d"}}`, true, false},
		"invalid UTF-8":       {"{\"data\":{\"a\":\"\xff\xfe\"}}", true, false},
		"UTF-8":               {`{"data":{"a":"caf` + "\u00e9" + `"}}`, true, false},
		"a bad escape":        {`{"data":{"a":"\x"}}`, false, true},
		"a short \\u":         {`{"data":{"a":"\u00e"}}`, false, true},
		"a control character": {"{\"data\":{\"a\":\"\x01\"}}", false, true},
		"a control key":       {"{\"data\":{\"a\x01\":\"b\"}}", false, true},
		"an invalid key":      {"{\"data\":{\"\xff\":\"b\"}}", false, false},
		"an escaped map key":  {`{"data":{"\u0061":"b"}}`, false, false},
		"null data":           {`{"data":null,"binaryData":null,"immutable":null,"metadata":null}`, true, false},
		"null value":          {`{"data":{"a":null}}`, false, false},
		"empty":               {`{"data":{},"binaryData":{},"metadata":{"labels":{},"finalizers":[]}}`, true, false},
		"base64":              {`{"binaryData":{"a":"aGk=","b":"","c":"aA\u003d\u003d"}}`, true, false},
		"bad base64":          {`{"binaryData":{"a":"!!"}}`, false, true},
		"numbers":             {`{"metadata":{"generation":-0,"deletionGracePeriodSeconds":9223372036854775807}}`, true, false},
		"the least int64":     {`{"metadata":{"generation":-9223372036854775808}}`, true, false},
		"past int64":          {`{"metadata":{"generation":9223372036854775808}}`, false, true},
		"a fraction":          {`{"metadata":{"generation":1.0}}`, false, true},
		"an exponent":         {`{"metadata":{"generation":1e3}}`, false, true},
		"a leading zero":      {`{"metadata":{"generation":01}}`, false, true},
		"a bare minus":        {`{"metadata":{"generation":-}}`, false, true},
		"times":               {`{"metadata":{"creationTimestamp":"2026-01-02T03:04:05Z","deletionTimestamp":null}}`, true, false},
		"a null time":         {`{"metadata":{"creationTimestamp":null}}`, true, false},
		"a bad time":          {`{"metadata":{"creationTimestamp":"yesterday"}}`, false, true},
		"a time as a number":  {`{"metadata":{"creationTimestamp":5}}`, false, true},
		"managed fields": {`{"metadata":{"managedFields":[{"manager":"m","fieldsType":"FieldsV1",` +
			`"fieldsV1":{"f:data":{"k:{\"a\":1}":{}, "f:x" : {}}},"time":null},{"fieldsV1":null}]}}`, true, false},
		"a set with a bad number":  {`{"metadata":{"managedFields":[{"fieldsV1":{"a":01}}]}}`, false, true},
		"a set with a bad string":  {"{\"metadata\":{\"managedFields\":[{\"fieldsV1\":{\"a\\x\":{}}}]}}", false, true},
		"a set with a trailing ,":  {`{"metadata":{"managedFields":[{"fieldsV1":{"a":{},}}]}}`, false, true},
		"white space":              {" \t\r\n{ \"data\" : { \"a\" : \"b\" } , \"immutable\" : true } \n", true, false},
		"true followed by letters": {`{"immutable":truex}`, false, true},
		"an unknown field":         {`{"bogus":1}`, false, false},
		"a duplicate field":        {`{"data":{},"data":{}}`, false, false},
		"trailing data":            {`{} {}`, false, true},
		"a trailing comma":         {`{"data":{"a":"b",}}`, false, true},
		"truncated":                {`{"data":{"a":"b"`, false, true},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var got, want ConfigMap
			onePass := decodeClean([]byte(c.body), reflect.ValueOf(&got).Elem())
			err := json.Unmarshal([]byte(c.body), &want)
			assert.Equal(t, c.jsonFail, err != nil, "json.Unmarshal: %v", err)
			assert.Equal(t, c.onePass, onePass)
			if onePass {
				assert.Equal(t, want, got)
			} else {
				assert.Equal(t, ConfigMap{}, got, "a body given up leaves the value zero")
			}
		})
	}
}

// A pod's own shapes: pointers, int-or-strings, quantities, lists of
// structs, an integer out of an int32 field's range.
func TestDecodeCleanDecodesPodShapes(t *testing.T) {
	for name, c := range map[string]struct {
		body    string
		onePass bool
	}{
		"probes": {`{"spec":{"containers":[{"name":"a","livenessProbe":{"httpGet":{"port":"http"},"periodSeconds":3},` +
			`"readinessProbe":{"tcpSocket":{"port":80}},"resources":{"limits":{"cpu":2,"memory":"1Gi"}}}]}}`, true},
		"null pointers":   {`{"spec":{"activeDeadlineSeconds":null,"securityContext":null,"containers":null}}`, true},
		"past int32":      {`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":2147483648}]}]}}`, false},
		"a bad quantity":  {`{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"lots"}}}]}}`, false},
		"an empty list":   {`{"spec":{"containers":[],"tolerations":[]}}`, true},
		"a list of nulls": {`{"spec":{"containers":[null]}}`, true},
	} {
		t.Run(name, func(t *testing.T) {
			var got, want Pod
			onePass := decodeClean([]byte(c.body), reflect.ValueOf(&got).Elem())
			require.Equal(t, c.onePass, onePass)
			if onePass {
				require.NoError(t, json.Unmarshal([]byte(c.body), &want))
				assert.Equal(t, want, got)
			}
		})
	}
}

// The one-pass decoder sets a struct's fields itself only when
// encoding/json would resolve them the same way; every built-in kind's
// structs qualify, so that none of them silently takes the slower path.
func TestEveryBuiltinStructIsPlain(t *testing.T) {
	for typ, st := range builtinScanTypes() {
		if typ.Kind() == reflect.Struct && !st.custom && st.shaped == nil {
			assert.True(t, st.plain, "%v", typ)
		}
	}
}
