package admission

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"kubeloop/api"
)

// fieldPath names a field the way Kubernetes' field.Path prints it:
// "spec.containers[0].image", "metadata.labels[app]". It is a plain string
// because validation only ever appends to it and prints it.
type fieldPath string

func newPath(parts ...string) fieldPath { return fieldPath(strings.Join(parts, ".")) }

// Child appends ".name" (or just "name" at the root).
func (p fieldPath) Child(names ...string) fieldPath {
	out := p
	for _, n := range names {
		if out == "" {
			out = fieldPath(n)
		} else {
			out += fieldPath("." + n)
		}
	}
	return out
}

// Index appends "[i]" for a list element.
func (p fieldPath) Index(i int) fieldPath { return p + fieldPath("["+strconv.Itoa(i)+"]") }

// Key appends "[k]" for a map entry.
func (p fieldPath) Key(k string) fieldPath { return p + fieldPath("["+k+"]") }

func (p fieldPath) String() string { return string(p) }

// fieldError is one problem with one field, Kubernetes' field.Error: the
// type becomes the StatusCause reason, the path its field, and the message
// is rendered from the bad value and a detail.
type fieldError struct {
	Type     api.CauseType
	Field    fieldPath
	BadValue any
	Detail   string
}

// errorList collects every problem of an object; validation never stops at
// the first one, so a client sees all of them in one reply.
type errorList []*fieldError

// The constructors mirror field.Required, field.Invalid and friends, so a
// rule reads the same here as in pkg/apis/core/validation.

func required(p fieldPath, detail string) *fieldError {
	return &fieldError{Type: api.CauseTypeFieldValueRequired, Field: p, Detail: detail}
}

func invalid(p fieldPath, value any, detail string) *fieldError {
	return &fieldError{Type: api.CauseTypeFieldValueInvalid, Field: p, BadValue: value, Detail: detail}
}

func duplicate(p fieldPath, value any) *fieldError {
	return &fieldError{Type: api.CauseTypeFieldValueDuplicate, Field: p, BadValue: value}
}

func forbidden(p fieldPath, detail string) *fieldError {
	return &fieldError{Type: api.CauseTypeFieldValueForbidden, Field: p, Detail: detail}
}

func tooLong(p fieldPath, maxBytes int) *fieldError {
	return &fieldError{Type: api.CauseTypeFieldValueTooLong, Field: p,
		Detail: fmt.Sprintf("must have at most %d bytes", maxBytes)}
}

func notSupported[T ~string](p fieldPath, value any, supported []T) *fieldError {
	quoted := make([]string, len(supported))
	for i, s := range supported {
		quoted[i] = strconv.Quote(string(s))
	}
	return &fieldError{Type: api.CauseTypeFieldValueNotSupported, Field: p, BadValue: value,
		Detail: "supported values: " + strings.Join(quoted, ", ")}
}

// typeWord is how Kubernetes spells each cause type at the start of a message.
func typeWord(t api.CauseType) string {
	switch t {
	case api.CauseTypeFieldValueRequired:
		return "Required value"
	case api.CauseTypeFieldValueDuplicate:
		return "Duplicate value"
	case api.CauseTypeFieldValueInvalid, api.CauseTypeFieldValueTypeInvalid:
		return "Invalid value"
	case api.CauseTypeFieldValueNotSupported:
		return "Unsupported value"
	case api.CauseTypeFieldValueForbidden:
		return "Forbidden"
	case api.CauseTypeFieldValueTooLong:
		return "Too long"
	case api.CauseTypeFieldValueTooMany:
		return "Too many"
	case api.CauseTypeFieldValueNotFound:
		return "Not found"
	}
	return string(t)
}

// Body is the message without the field: `Invalid value: "x": detail`.
// Required, Forbidden and TooLong never echo the value (it is empty, or
// could be huge); the others print it quoted if it is a string, bare if it
// is a number, and as JSON otherwise, as Kubernetes v1.37 does (its
// field.Error.ErrorBody tries json.Marshal before a Stringer and %#v).
func (e *fieldError) Body() string {
	s := typeWord(e.Type)
	switch e.Type {
	case api.CauseTypeFieldValueRequired, api.CauseTypeFieldValueForbidden, api.CauseTypeFieldValueTooLong:
	default:
		if _, omit := e.BadValue.(omitted); omit {
			break
		}
		s += ": " + formatValue(e.BadValue)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func (e *fieldError) Error() string { return e.Field.String() + ": " + e.Body() }

func formatValue(v any) string {
	if v == nil {
		return "null"
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return "null"
		}
		v = rv.Elem().Interface()
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.String:
		return strconv.Quote(rv.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Bool:
		return fmt.Sprintf("%v", v)
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", v)
}

// causes turns the list into the Status causes of an Invalid reply.
func (l errorList) causes() []api.StatusCause {
	out := make([]api.StatusCause, 0, len(l))
	seen := map[string]bool{}
	for _, e := range l {
		// Kubernetes drops exact duplicates when it aggregates the message.
		if key := e.Error(); !seen[key] {
			seen[key] = true
			out = append(out, api.StatusCause{Type: e.Type, Message: e.Body(), Field: e.Field.String()})
		}
	}
	return out
}
