package field

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"kubeloop/api"
)

// The cause types beyond those api declares for the built-in kinds.
const (
	ErrorTypeTooMany  api.CauseType = "FieldValueTooMany"
	ErrorTypeTooShort api.CauseType = "FieldValueTooShort"
	ErrorTypeInternal api.CauseType = "InternalError"
)

// Error is one problem with one field: the type becomes the cause's
// reason, and the message is rendered from the bad value and the detail.
type Error struct {
	Type     api.CauseType
	Field    Path
	BadValue any
	Detail   string
}

// OmitValueType as a bad value leaves the value out of the message
// ("Invalid value: detail"), as for an object or list a CEL rule refuses.
type OmitValueType struct{}

// Required is "Required value".
func Required(p Path, detail string) *Error {
	return &Error{Type: api.CauseTypeFieldValueRequired, Field: p, BadValue: "", Detail: detail}
}

// Invalid is "Invalid value: <value>".
func Invalid(p Path, value any, detail string) *Error {
	return &Error{Type: api.CauseTypeFieldValueInvalid, Field: p, BadValue: value, Detail: detail}
}

// TypeInvalid is a value of the wrong JSON type; it prints like Invalid.
func TypeInvalid(p Path, value any, detail string) *Error {
	return &Error{Type: api.CauseTypeFieldValueTypeInvalid, Field: p, BadValue: value, Detail: detail}
}

// Duplicate is "Duplicate value: <value>".
func Duplicate(p Path, value any) *Error {
	return &Error{Type: api.CauseTypeFieldValueDuplicate, Field: p, BadValue: value}
}

// Forbidden is "Forbidden"; the value is never echoed.
func Forbidden(p Path, detail string) *Error {
	return &Error{Type: api.CauseTypeFieldValueForbidden, Field: p, BadValue: "", Detail: detail}
}

// NotSupported is "Unsupported value: <value>: supported values: "a", "b"".
func NotSupported[T ~string](p Path, value any, supported []T) *Error {
	detail := ""
	if len(supported) > 0 {
		quoted := make([]string, len(supported))
		for i, s := range supported {
			quoted[i] = strconv.Quote(string(s))
		}
		detail = "supported values: " + strings.Join(quoted, ", ")
	}
	return &Error{Type: api.CauseTypeFieldValueNotSupported, Field: p, BadValue: value, Detail: detail}
}

// TooLong is "Too long: may not be more than N bytes".
func TooLong(p Path, maxLength int) *Error {
	detail := "value is too long"
	if maxLength >= 0 {
		detail = fmt.Sprintf("may not be more than %d %s", maxLength, plural(maxLength, "byte", "bytes"))
	}
	return &Error{Type: api.CauseTypeFieldValueTooLong, Field: p, BadValue: "<value omitted>", Detail: detail}
}

// TooMany is "Too many: <actual>: must have at most N items"; a negative
// actual is left out.
func TooMany(p Path, actual, maxQuantity int) *Error {
	detail := "has too many items"
	if maxQuantity >= 0 {
		detail = fmt.Sprintf("must have at most %d %s", maxQuantity, plural(maxQuantity, "item", "items"))
	}
	var bad any = OmitValueType{}
	if actual >= 0 {
		bad = actual
	}
	return &Error{Type: ErrorTypeTooMany, Field: p, BadValue: bad, Detail: detail}
}

// InternalError is a failure of the server, not of the value.
func InternalError(p Path, err error) *Error {
	return &Error{Type: ErrorTypeInternal, Field: p, Detail: err.Error()}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// typeWord is how each cause type starts a message.
func typeWord(t api.CauseType) string {
	switch t {
	case api.CauseTypeFieldValueNotFound:
		return "Not found"
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
	case ErrorTypeTooMany:
		return "Too many"
	case ErrorTypeTooShort:
		return "Too short"
	case ErrorTypeInternal:
		return "Internal error"
	}
	return fmt.Sprintf("<unknown error %q>", string(t))
}

// Body is the message without the field, e.g. `Invalid value: "x": must be
// a DNS label`. Required, Forbidden, TooLong, TooShort and internal errors
// never echo the value; the others print a string quoted, a number or bool
// bare, and anything else as JSON (a custom resource's value is a
// map[string]any or []any), as field.Error.ErrorBody does.
func (e *Error) Body() string {
	s := typeWord(e.Type)
	switch e.Type {
	case api.CauseTypeFieldValueRequired, api.CauseTypeFieldValueForbidden, api.CauseTypeFieldValueTooLong,
		ErrorTypeTooShort, ErrorTypeInternal:
	default:
		if _, omit := e.BadValue.(OmitValueType); !omit {
			s += ": " + formatValue(e.BadValue)
		}
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Error is "field: body".
func (e *Error) Error() string { return e.Field.String() + ": " + e.Body() }

func formatValue(v any) string {
	switch t := v.(type) {
	case int64, int32, float64, float32, bool:
		return fmt.Sprintf("%v", t)
	case string:
		return strconv.Quote(t)
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", v)
}
