package cel

import (
	"encoding/base64"
	"maps"
	"slices"
	"time"
)

// toCEL is an unstructured value in the form CEL reads it in, as its
// declaration says: a number field holds a float64 even when the JSON had
// no fraction ("2"), an integer field an int64 even for "2.0", a date-time
// or date string a time.Time, a duration a time.Duration, a byte string
// its decoded []byte. Anything CEL cannot see is left out of objects'
// fields only in the type checker: the value is kept, untouched. A string
// that does not parse stays a string, and a rule using it then fails at
// run time. Kubernetes: apiextensions-apiserver
// pkg/apiserver/schema/cel/values.go and k8s.io/apiserver/pkg/cel/common/values.go
// (UnstructuredToVal), which wrap lazily instead of converting.
func toCEL(x any, d *declType) any {
	v, _ := convert(x, d)
	return v
}

// convert is toCEL, and says whether the result differs from x. A map or
// a list is copied only when something below it changed: most objects
// already hold their declared types (the decoder reads "2" as an int64),
// and then CEL reads the object itself, which validation never writes.
func convert(x any, d *declType) (any, bool) {
	if d == nil || x == nil {
		return x, false
	}
	switch t := x.(type) {
	case map[string]any:
		var out map[string]any
		set := func(k string, v any) {
			if out == nil {
				out = maps.Clone(t)
			}
			out[k] = v
		}
		switch {
		case d.fields != nil:
			for _, f := range d.fields {
				if v, ok := t[f.jsonName]; ok {
					if c, changed := convert(v, f.typ); changed {
						set(f.jsonName, c)
					}
				}
			}
		case d.elem != nil:
			for k, v := range t {
				if c, changed := convert(v, d.elem); changed {
					set(k, c)
				}
			}
		}
		if out == nil {
			return t, false
		}
		return out, true
	case []any:
		if d.elem == nil {
			return t, false
		}
		var out []any
		for i, v := range t {
			c, changed := convert(v, d.elem)
			if changed && out == nil {
				out = slices.Clone(t)
			}
			if out != nil {
				out[i] = c
			}
		}
		if out == nil {
			return t, false
		}
		return out, true
	case int64:
		if d.cel.String() == "double" {
			return float64(t), true
		}
	case float64:
		if d.cel.String() == "int" && t == float64(int64(t)) {
			return int64(t), true
		}
	case string:
		c := convertString(t, d.format)
		if _, unchanged := c.(string); !unchanged {
			return c, true
		}
	}
	return x, false
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
