package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
)

// The JSON forms of the schema's either-or types, as Kubernetes writes them
// (apiextensions-apiserver/pkg/apis/apiextensions/v1/marshal.go):
//
//	JSON                          the value itself; null when empty
//	JSONSchemaPropsOrBool         a schema object, or true / false
//	JSONSchemaPropsOrArray        a schema object, or an array of schemas
//	JSONSchemaPropsOrStringArray  a schema object, or an array of strings
//
// A schema given as an object also counts as "allows" for OrBool, so
// {"additionalProperties": {}} and true are not the same value but both
// allow extra properties.

var jsonNull = []byte("null")

// MarshalJSON writes the kept text; an empty JSON is null.
func (j JSON) MarshalJSON() ([]byte, error) {
	if len(j.Raw) == 0 {
		return jsonNull, nil
	}
	return j.Raw, nil
}

// UnmarshalJSON keeps the text of any value but null.
func (j *JSON) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && !bytes.Equal(data, jsonNull) {
		j.Raw = append(j.Raw[:0], data...)
	}
	return nil
}

// MarshalJSON writes the schema if there is one, else the boolean.
func (s JSONSchemaPropsOrBool) MarshalJSON() ([]byte, error) {
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	if s.Allows {
		return []byte("true"), nil
	}
	return []byte("false"), nil
}

// UnmarshalJSON reads a schema object (Allows true) or a boolean.
func (s *JSONSchemaPropsOrBool) UnmarshalJSON(data []byte) error {
	var out JSONSchemaPropsOrBool
	switch {
	case len(data) == 0:
	case data[0] == '{':
		out.Schema = new(JSONSchemaProps)
		if err := json.Unmarshal(data, out.Schema); err != nil {
			return err
		}
		out.Allows = true
	case string(data) == "true":
		out.Allows = true
	case string(data) == "false":
	default:
		return errors.New("boolean or JSON schema expected")
	}
	*s = out
	return nil
}

// MarshalJSON writes the array when it has elements, else the single
// schema (null when there is none).
func (s JSONSchemaPropsOrArray) MarshalJSON() ([]byte, error) {
	if len(s.JSONSchemas) > 0 {
		return json.Marshal(s.JSONSchemas)
	}
	return json.Marshal(s.Schema)
}

// UnmarshalJSON reads a schema object or an array of schemas; anything
// else leaves both empty, as Kubernetes does.
func (s *JSONSchemaPropsOrArray) UnmarshalJSON(data []byte) error {
	var out JSONSchemaPropsOrArray
	if len(data) > 1 {
		switch data[0] {
		case '{':
			out.Schema = new(JSONSchemaProps)
			if err := json.Unmarshal(data, out.Schema); err != nil {
				return err
			}
		case '[':
			if err := json.Unmarshal(data, &out.JSONSchemas); err != nil {
				return err
			}
		}
	}
	*s = out
	return nil
}

// MarshalJSON writes the property names when there are any, else the
// schema, else null.
func (s JSONSchemaPropsOrStringArray) MarshalJSON() ([]byte, error) {
	if len(s.Property) > 0 {
		return json.Marshal(s.Property)
	}
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	return jsonNull, nil
}

// UnmarshalJSON reads a schema object or an array of property names.
func (s *JSONSchemaPropsOrStringArray) UnmarshalJSON(data []byte) error {
	var out JSONSchemaPropsOrStringArray
	if len(data) > 1 {
		switch data[0] {
		case '{':
			out.Schema = new(JSONSchemaProps)
			if err := json.Unmarshal(data, out.Schema); err != nil {
				return err
			}
		case '[':
			if err := json.Unmarshal(data, &out.Property); err != nil {
				return err
			}
		}
	}
	*s = out
	return nil
}

// jsonShaped is implemented (on the pointer) by the types above, whose JSON
// takes one of several shapes. The strict decoder (codec.go, codec_scan.go)
// cannot walk a type with its own UnmarshalJSON, so it asks which Go type
// the value decodes as, given the value's first byte ('{', '[', 't', 'f',
// '"', a digit or '-'), and walks that: an unknown keyword deep inside a
// schema is then reported by path like any other unknown field. A nil type
// means the shape is wrong for the field. The methods never dereference
// their receiver, so a nil pointer answers.
type jsonShaped interface {
	jsonShapeOf(first byte) reflect.Type
	jsonShapeName() string
}

func (*JSON) jsonShapeOf(byte) reflect.Type { return reflect.TypeFor[any]() }
func (*JSON) jsonShapeName() string         { return "any JSON value" }

func (*JSONSchemaPropsOrBool) jsonShapeOf(first byte) reflect.Type {
	switch first {
	case '{':
		return reflect.TypeFor[JSONSchemaProps]()
	case 't', 'f':
		return reflect.TypeFor[bool]()
	}
	return nil
}
func (*JSONSchemaPropsOrBool) jsonShapeName() string { return "boolean or JSON schema" }

func (*JSONSchemaPropsOrArray) jsonShapeOf(first byte) reflect.Type {
	switch first {
	case '{':
		return reflect.TypeFor[JSONSchemaProps]()
	case '[':
		return reflect.TypeFor[[]JSONSchemaProps]()
	}
	return nil
}
func (*JSONSchemaPropsOrArray) jsonShapeName() string { return "JSON schema or array of JSON schemas" }

func (*JSONSchemaPropsOrStringArray) jsonShapeOf(first byte) reflect.Type {
	switch first {
	case '{':
		return reflect.TypeFor[JSONSchemaProps]()
	case '[':
		return reflect.TypeFor[[]string]()
	}
	return nil
}
func (*JSONSchemaPropsOrStringArray) jsonShapeName() string {
	return "JSON schema or array of strings"
}

// shapedType returns t's jsonShaped methods, if t has them.
func shapedType(t reflect.Type) (jsonShaped, bool) {
	pt := reflect.PointerTo(t)
	if !pt.Implements(reflect.TypeFor[jsonShaped]()) {
		return nil, false
	}
	return reflect.Zero(pt).Interface().(jsonShaped), true
}

// firstByteOfToken is the first byte of the JSON text a decoder token
// came from.
func firstByteOfToken(tok json.Token) byte {
	switch v := tok.(type) {
	case json.Delim:
		return byte(v)
	case bool:
		if v {
			return 't'
		}
		return 'f'
	case string:
		return '"'
	case json.Number:
		if len(v) > 0 {
			return v[0]
		}
	}
	return 'n'
}
