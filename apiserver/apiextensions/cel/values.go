package cel

import (
	"encoding/base64"
	"time"
)

// toCEL copies an unstructured value into the form CEL reads it in, as
// its declaration says: a number field holds a float64 even when the JSON
// had no fraction ("2"), an integer field an int64 even for "2.0", a
// date-time or date string a time.Time, a duration a time.Duration, a
// byte string its decoded []byte. Anything CEL cannot see is left out of
// objects' fields only in the type checker: the value is kept, untouched.
// A string that does not parse stays a string, and a rule using it then
// fails at run time. Kubernetes: apiextensions-apiserver
// pkg/apiserver/schema/cel/values.go and k8s.io/apiserver/pkg/cel/common/values.go
// (UnstructuredToVal), which wrap lazily instead of copying.
func toCEL(x any, d *declType) any {
	if d == nil || x == nil {
		return x
	}
	switch t := x.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, v := range t {
			out[k] = v
		}
		switch {
		case d.fields != nil:
			for _, f := range d.fields {
				if v, ok := t[f.jsonName]; ok {
					out[f.jsonName] = toCEL(v, f.typ)
				}
			}
		case d.elem != nil:
			for k, v := range t {
				out[k] = toCEL(v, d.elem)
			}
		}
		return out
	case []any:
		if d.elem == nil {
			return t
		}
		out := make([]any, len(t))
		for i, v := range t {
			out[i] = toCEL(v, d.elem)
		}
		return out
	case int64:
		if d.cel.String() == "double" {
			return float64(t)
		}
	case float64:
		if d.cel.String() == "int" && t == float64(int64(t)) {
			return int64(t)
		}
	case string:
		return convertString(t, d.format)
	}
	return x
}

func convertString(s, format string) any {
	switch format {
	case "byte":
		if b, err := base64.StdEncoding.DecodeString(s); err == nil {
			return b
		}
	case "duration":
		if dur, err := time.ParseDuration(s); err == nil {
			return dur
		}
	case "date":
		if t, err := time.Parse("2006-01-02", s); err == nil {
			return t
		}
	case "date-time":
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t
		}
	}
	return s
}
