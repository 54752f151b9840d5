package api

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// IntOrString holds either a number or a string, and goes on the wire as a
// bare JSON number or a JSON string: a port as 8080 or "http", a rollout's
// maxSurge as 1 or "25%". Kubernetes: staging/src/k8s.io/apimachinery/pkg/
// util/intstr/intstr.go (IntOrString). Its protobuf form is a message
// {1 type, 2 intVal, 3 strVal}; all three are always written.
type IntOrString struct {
	// Which of intVal and strVal holds the value.
	Type IntOrStringType `protobuf:"varint,1,opt,name=type"`
	// The number, when type is Int.
	IntVal int32 `protobuf:"varint,2,opt,name=intVal"`
	// The string, when type is String.
	StrVal string `protobuf:"bytes,3,opt,name=strVal"`
}

// IntOrStringType says which of the two an IntOrString holds.
type IntOrStringType int64

// The two kinds of IntOrString.
const (
	Int    IntOrStringType = 0
	String IntOrStringType = 1
)

// FromInt32 returns an IntOrString holding a number.
func FromInt32(v int32) IntOrString { return IntOrString{Type: Int, IntVal: v} }

// FromString returns an IntOrString holding a string.
func FromString(s string) IntOrString { return IntOrString{Type: String, StrVal: s} }

// String renders the value as it would be typed: "8080" or "http".
func (v IntOrString) String() string {
	if v.Type == String {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// MarshalJSON writes a number or a string, whichever the value holds.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.Type == String {
		return quoteJSON(nil, v.StrVal), nil
	}
	return strconv.AppendInt(nil, int64(v.IntVal), 10), nil
}

// UnmarshalJSON accepts a JSON string or a JSON integer that fits in 32
// bits, as Kubernetes does; null leaves the zero value (the number 0).
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		s, err := unquoteJSON(b)
		if err != nil {
			return err
		}
		*v = FromString(s)
		return nil
	}
	var n int32
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("an int-or-string must be a string or a 32-bit integer, not %s", b)
	}
	*v = FromInt32(n)
	return nil
}

// FieldsV1 is a set of fields in server-side apply's JSON format
// ({"f:metadata":{"f:labels":{...}}}), kept as the raw bytes it arrived as.
// Kubernetes: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go
// (FieldsV1). Its protobuf form is a message {1 raw}.
type FieldsV1 struct {
	// The set as JSON bytes; the JSON form is these bytes themselves.
	Raw []byte `json:"-" protobuf:"bytes,1,opt,name=Raw"`
}

// MarshalJSON writes the raw set as it is; an empty one is null.
func (f FieldsV1) MarshalJSON() ([]byte, error) {
	if f.Raw == nil {
		return []byte("null"), nil
	}
	return f.Raw, nil
}

// UnmarshalJSON keeps a copy of the raw JSON; null is an empty set.
func (f *FieldsV1) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		f.Raw = nil
		return nil
	}
	f.Raw = append(f.Raw[:0], b...)
	return nil
}
