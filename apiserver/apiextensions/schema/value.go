package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
)

// Custom resources are unstructured JSON. Every package of apiextensions
// expects a value to be one of: nil, bool, string, int64 (a JSON number
// without fraction or exponent that fits), float64 (any other number),
// []any, map[string]any. That is what apimachinery's util/json.Unmarshal
// produces, and what DecodeJSON produces here.

// DecodeJSON reads one JSON value into the unstructured form.
func DecodeJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("invalid JSON: unexpected data after the value")
	}
	return ConvertNumbers(v)
}

// ConvertNumbers replaces every json.Number in v (decoded with UseNumber)
// by an int64 where it is an integer that fits, else by a float64.
func ConvertNumbers(v any) (any, error) {
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
			c, err := ConvertNumbers(e)
			if err != nil {
				return nil, err
			}
			t[k] = c
		}
	case []any:
		for i, e := range t {
			c, err := ConvertNumbers(e)
			if err != nil {
				return nil, err
			}
			t[i] = c
		}
	}
	return v, nil
}

// Number reads an unstructured number. isInt is true for an int64, and for
// a float64 without a fractional part (JSON Schema's integer includes 1.0).
func Number(v any) (f float64, isInt, ok bool) {
	switch t := v.(type) {
	case int64:
		return float64(t), true, true
	case float64:
		return t, t == math.Trunc(t) && !math.IsInf(t, 0), true
	}
	return 0, false, false
}

// DeepCopyJSONValue copies an unstructured value.
func DeepCopyJSONValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = DeepCopyJSONValue(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = DeepCopyJSONValue(e)
		}
		return out
	}
	return v
}
