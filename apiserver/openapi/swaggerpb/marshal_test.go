package swaggerpb

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
)

// fields decodes one message into its fields by number, each occurrence's
// raw value in order: bytes for length-delimited fields, the number for
// varints.
func fields(t *testing.T, b []byte) map[protowire.Number][]any {
	t.Helper()
	out := map[protowire.Number][]any{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		require.GreaterOrEqual(t, n, 0)
		b = b[n:]
		switch typ {
		case protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			require.GreaterOrEqual(t, n, 0)
			out[num] = append(out[num], v)
			b = b[n:]
		case protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			require.GreaterOrEqual(t, n, 0)
			out[num] = append(out[num], v)
			b = b[n:]
		default:
			t.Fatalf("unexpected wire type %v", typ)
		}
	}
	return out
}

func str(v any) string { return string(v.([]byte)) }

func TestMarshalWritesGnosticFieldNumbers(t *testing.T) {
	doc, err := Marshal([]byte(`{
	  "swagger": "2.0",
	  "info": {"title": "Kubernetes", "version": "v1.37.2"},
	  "paths": {"/api/v1/pods": {"get": {
	    "operationId": "listCoreV1PodForAllNamespaces",
	    "parameters": [{"name": "fieldValidation", "in": "query", "type": "string", "uniqueItems": true}],
	    "responses": {"200": {"description": "OK", "schema": {"$ref": "#/definitions/io.k8s.api.core.v1.PodList"}}},
	    "x-kubernetes-group-version-kind": {"group": "", "kind": "Pod", "version": "v1"}}}},
	  "definitions": {"io.k8s.api.core.v1.Pod": {
	    "type": "object", "required": ["spec"],
	    "properties": {"spec": {"$ref": "#/definitions/io.k8s.api.core.v1.PodSpec", "default": {}}}}}
	}`))
	require.NoError(t, err)
	d := fields(t, doc)
	assert.Equal(t, "2.0", str(d[1][0]), "swagger = 1")
	info := fields(t, d[2][0].([]byte))
	assert.Equal(t, "Kubernetes", str(info[1][0]))
	assert.Equal(t, "v1.37.2", str(info[2][0]))

	path := fields(t, fields(t, d[8][0].([]byte))[2][0].([]byte)) // Paths.path: NamedPathItem
	assert.Equal(t, "/api/v1/pods", str(path[1][0]))
	get := fields(t, fields(t, path[2][0].([]byte))[2][0].([]byte)) // PathItem.get: Operation
	assert.Equal(t, "listCoreV1PodForAllNamespaces", str(get[5][0]))
	query := fields(t, fields(t, fields(t, fields(t, get[8][0].([]byte))[1][0].([]byte))[2][0].([]byte))[3][0].([]byte))
	assert.Equal(t, "fieldValidation", str(query[4][0]), "ParametersItem → Parameter → NonBodyParameter → QueryParameterSubSchema.name")
	assert.Equal(t, uint64(1), query[20][0], "uniqueItems = 20")
	ext := fields(t, get[13][0].([]byte)) // Operation.vendor_extension: NamedAny
	assert.Equal(t, "x-kubernetes-group-version-kind", str(ext[1][0]))
	assert.JSONEq(t, `{"group":"","kind":"Pod","version":"v1"}`, str(fields(t, ext[2][0].([]byte))[2][0]), "Any.yaml = 2")

	def := fields(t, fields(t, d[9][0].([]byte))[1][0].([]byte)) // Definitions: NamedSchema
	assert.Equal(t, "io.k8s.api.core.v1.Pod", str(def[1][0]))
	pod := fields(t, def[2][0].([]byte))
	assert.Equal(t, "object", str(fields(t, pod[22][0].([]byte))[1][0]), "Schema.type = 22, a TypeItem")
	assert.Equal(t, "spec", str(pod[19][0]), "required = 19")
	spec := fields(t, fields(t, fields(t, pod[25][0].([]byte))[1][0].([]byte))[2][0].([]byte))
	assert.Equal(t, "#/definitions/io.k8s.api.core.v1.PodSpec", str(spec[1][0]), "_ref = 1")
	assert.Equal(t, "{}", str(fields(t, spec[5][0].([]byte))[2][0]), "default = 5")
}

func TestMarshalRefusesWhatItCannotWrite(t *testing.T) {
	for name, doc := range map[string]string{
		"unknown key":       `{"swagger":"2.0","securityDefinitions":{}}`,
		"unknown in schema": `{"definitions":{"X":{"nullable":true}}}`,
		"wrong type":        `{"swagger":2}`,
		"not JSON":          `{`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Marshal([]byte(doc))
			require.Error(t, err)
		})
	}
}
