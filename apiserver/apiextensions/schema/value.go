package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"kubeloop/api"
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
func ConvertNumbers(v any) (any, error) { return api.ConvertJSONNumbers(v) }

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
func DeepCopyJSONValue(v any) any { return api.DeepCopyJSON(v) }
