package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Unstructured is an object of a kind that has no Go type: a custom
// resource, whose shape is a CustomResourceDefinition's schema, known only
// at run time. Its metadata is the typed ObjectMeta, so every generic piece
// of the stack (store keys, resourceVersion, finalizers, owner references,
// label selectors) reads it as it reads any kind's; everything else at the
// top level (spec, status, data, ...) is JSON held as plain Go values.
//
// The values in Content are nil, bool, string, int64 (a JSON integer that
// fits), float64 (any other number), []any and map[string]any, as
// apimachinery's util/json produces them.
//
// Kubernetes: apimachinery/pkg/apis/meta/v1/unstructured/unstructured.go
// (Unstructured), which keeps metadata as a map too; kubeloop types it,
// which prunes unknown metadata fields exactly where Kubernetes' CR decoder
// does (it round-trips metadata through ObjectMeta).
//
// +kubeloop:deepcopy=false
type Unstructured struct {
	TypeMeta
	ObjectMeta
	// Content is every top-level field but apiVersion, kind and metadata.
	Content map[string]any
}

// UnstructuredList is a list of custom resources: {"items":[...]}.
type UnstructuredList = List[Unstructured, *Unstructured]

// DeepCopyObject copies the object and all of its content.
func (u *Unstructured) DeepCopyObject() Object { return u.DeepCopy() }

// DeepCopy copies the object and all of its content.
func (u *Unstructured) DeepCopy() *Unstructured {
	if u == nil {
		return nil
	}
	out := &Unstructured{TypeMeta: u.TypeMeta}
	u.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if u.Content != nil {
		out.Content = DeepCopyJSON(u.Content).(map[string]any)
	}
	return out
}

// MarshalJSON writes apiVersion, kind, metadata and the content as one
// object, keys sorted as encoding/json sorts a map's.
func (u Unstructured) MarshalJSON() ([]byte, error) {
	if b, ok := u.marshalFast(); ok { // unstructured_fast.go
		return b, nil
	}
	return u.marshalPlain()
}

func (u *Unstructured) marshalPlain() ([]byte, error) {
	m := make(map[string]any, len(u.Content)+3)
	for k, v := range u.Content {
		m[k] = v
	}
	if u.APIVersion != "" {
		m["apiVersion"] = u.APIVersion
	}
	if u.Kind != "" {
		m["kind"] = u.Kind
	}
	m["metadata"] = &u.ObjectMeta
	return json.Marshal(m)
}

// UnmarshalJSON reads one JSON object. apiVersion and kind must be strings
// and metadata an ObjectMeta; a wrong type is an error naming the field.
func (u *Unstructured) UnmarshalJSON(data []byte) error {
	if u.decodeFast(data) { // unstructured_fast.go
		return nil
	}
	return u.unmarshalPlain(data)
}

func (u *Unstructured) unmarshalPlain(data []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return describeJSONError(err)
	}
	*u = Unstructured{Content: make(map[string]any, len(top))}
	for k, raw := range top {
		switch k {
		case "apiVersion", "kind":
			var s string
			if err := json.Unmarshal(raw, &s); err != nil && string(raw) != "null" {
				return fmt.Errorf("%s: must be a string, got %s", k, jsonKindOf(raw))
			}
			if k == "kind" {
				u.Kind = s
			} else {
				u.APIVersion = s
			}
		case "metadata":
			if string(raw) == "null" {
				continue
			}
			if err := json.Unmarshal(raw, &u.ObjectMeta); err != nil {
				return describeJSONError(err)
			}
		default:
			v, err := DecodeJSONValue(raw)
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			u.Content[k] = v
		}
	}
	return nil
}

// jsonKindOf names the JSON type of a raw value, for messages.
func jsonKindOf(raw json.RawMessage) string {
	switch t := strings.TrimSpace(string(raw)); {
	case t == "":
		return "nothing"
	case t[0] == '{':
		return "object"
	case t[0] == '[':
		return "array"
	case t[0] == '"':
		return "string"
	case t == "true" || t == "false":
		return "boolean"
	}
	return "number"
}

// DecodeJSONValue reads one JSON value into the unstructured form:
// integers that fit become int64, every other number float64.
func DecodeJSONValue(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("invalid JSON: unexpected data after the value")
	}
	return ConvertJSONNumbers(v)
}

// ConvertJSONNumbers replaces, in place, every json.Number in v (decoded
// with UseNumber) by an int64 where it is an integer that fits, else by a
// float64.
func ConvertJSONNumbers(v any) (any, error) {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		f, err := t.Float64()
		if err != nil {
			return nil, err
		}
		return f, nil
	case map[string]any:
		for k, e := range t {
			c, err := ConvertJSONNumbers(e)
			if err != nil {
				return nil, err
			}
			t[k] = c
		}
	case []any:
		for i, e := range t {
			c, err := ConvertJSONNumbers(e)
			if err != nil {
				return nil, err
			}
			t[i] = c
		}
	}
	return v, nil
}

// DeepCopyJSON copies an unstructured value.
func DeepCopyJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = DeepCopyJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = DeepCopyJSON(e)
		}
		return out
	}
	return v
}

// NestedField reads the value at a path of field names in an unstructured
// map ("spec", "replicas"); found is false when any step is missing or not
// an object.
func NestedField(m map[string]any, path ...string) (v any, found bool) {
	var cur any = m
	for _, p := range path {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = obj[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// SetNestedField writes v at a path of field names, making the objects on
// the way; an intermediate value that is not an object is replaced.
func SetNestedField(m map[string]any, v any, path ...string) {
	cur := m
	for _, p := range path[:len(path)-1] {
		next, ok := cur[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[p] = next
		}
		cur = next
	}
	cur[path[len(path)-1]] = v
}
