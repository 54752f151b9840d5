package swaggerpb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// Marshal encodes a Swagger 2.0 document, given as JSON, as a gnostic
// openapi_v2.Document.
func Marshal(swaggerJSON []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(swaggerJSON))
	dec.UseNumber() // defaults keep the digits they were written with
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("swaggerpb: %w", err)
	}
	return encodeMessage(nil, swaggerMessages(), doc, "")
}

// encodeMessage appends the fields of message m, whose JSON form is v, to b
// (without a tag or length: the caller frames it). path names v in errors.
func encodeMessage(b []byte, m *message, v any, path string) ([]byte, error) {
	if m.oneof != nil {
		return encodeField(b, m.oneof(v), v, path)
	}
	if m.list != nil {
		items, isList := v.([]any)
		if !isList {
			items = []any{v}
		}
		for i, item := range items {
			var err error
			if b, err = encodeField(b, *m.list, item, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return nil, err
			}
		}
		return b, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("swaggerpb: %s: %s must be an object, not %T", path, m.name, v)
	}
	for _, key := range sortedKeys(obj) {
		val, at := obj[key], path+"/"+key
		var err error
		switch f, known := m.fields[key]; {
		case known:
			b, err = encodeField(b, f, val, at)
		case strings.HasPrefix(key, "x-") && m.extensions != 0:
			b, err = encodeNamed(b, m.extensions, key, field{num: 2, kind: kAny}, val, at)
		case m.entries != 0 && (m.extensions == 0 || !strings.HasPrefix(key, "x-")):
			// A map without vendor extensions (Properties) takes "x-" keys
			// as entries: a CRD's JSONSchemaProps has such properties.
			b, err = encodeNamed(b, m.entries, key, field{num: 2, kind: kMessage, msg: m.entryValue}, val, at)
		default:
			err = fmt.Errorf("swaggerpb: %s: %s has no field %q", at, m.name, key)
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// encodeNamed appends one Named message {1 name, 2 value} as field num.
func encodeNamed(b []byte, num protowire.Number, name string, value field, v any, path string) ([]byte, error) {
	var entry []byte
	entry = protowire.AppendTag(entry, 1, protowire.BytesType)
	entry = protowire.AppendString(entry, name)
	entry, err := encodeField(entry, value, v, path)
	if err != nil {
		return nil, err
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, entry), nil
}

// encodeField appends the JSON value v as field f.
func encodeField(b []byte, f field, v any, path string) ([]byte, error) {
	switch f.kind {
	case kString:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("swaggerpb: %s must be a string, not %T", path, v)
		}
		b = protowire.AppendTag(b, f.num, protowire.BytesType)
		return protowire.AppendString(b, s), nil
	case kBool:
		t, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("swaggerpb: %s must be a boolean, not %T", path, v)
		}
		b = protowire.AppendTag(b, f.num, protowire.VarintType)
		return protowire.AppendVarint(b, protowire.EncodeBool(t)), nil
	case kDouble, kInt64:
		n, ok := v.(json.Number)
		if !ok {
			return nil, fmt.Errorf("swaggerpb: %s must be a number, not %T", path, v)
		}
		if f.kind == kInt64 {
			i, err := n.Int64()
			if err != nil {
				return nil, fmt.Errorf("swaggerpb: %s must be an integer: %w", path, err)
			}
			b = protowire.AppendTag(b, f.num, protowire.VarintType)
			return protowire.AppendVarint(b, uint64(i)), nil
		}
		x, err := n.Float64()
		if err != nil {
			return nil, fmt.Errorf("swaggerpb: %s: %w", path, err)
		}
		b = protowire.AppendTag(b, f.num, protowire.Fixed64Type)
		return protowire.AppendFixed64(b, math.Float64bits(x)), nil
	case kStrings, kMessages, kAnys:
		items, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("swaggerpb: %s must be a list, not %T", path, v)
		}
		one := field{num: f.num, msg: f.msg, kind: map[kind]kind{kStrings: kString, kMessages: kMessage, kAnys: kAny}[f.kind]}
		for i, item := range items {
			var err error
			if b, err = encodeField(b, one, item, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return nil, err
			}
		}
		return b, nil
	case kMessage:
		sub, err := encodeMessage(nil, f.msg, v, path)
		if err != nil {
			return nil, err
		}
		b = protowire.AppendTag(b, f.num, protowire.BytesType)
		return protowire.AppendBytes(b, sub), nil
	case kAny:
		// gnostic's Any {1 google.protobuf.Any value, 2 string yaml}: the
		// value as text that a YAML parser reads (JSON is YAML).
		text, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("swaggerpb: %s: %w", path, err)
		}
		var anyMsg []byte
		anyMsg = protowire.AppendTag(anyMsg, 2, protowire.BytesType)
		anyMsg = protowire.AppendBytes(anyMsg, text)
		b = protowire.AppendTag(b, f.num, protowire.BytesType)
		return protowire.AppendBytes(b, anyMsg), nil
	}
	return nil, fmt.Errorf("swaggerpb: %s: unknown field kind %d", path, f.kind)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
