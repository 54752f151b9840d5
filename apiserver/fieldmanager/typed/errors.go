package typed

import (
	"fmt"

	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// FieldError is a value that does not fit the schema, at a path. Callers
// answer it with a 400/422 naming the path.
type FieldError struct {
	Path    string
	Message string
}

func (e *FieldError) Error() string {
	if e.Path == "" {
		return e.Message
	}
	return e.Path + ": " + e.Message
}

func errorAt(p fieldpath.Path, format string, args ...any) error {
	return &FieldError{Path: p.String(), Message: fmt.Sprintf(format, args...)}
}

// describe names a JSON value's kind the way SMD's messages do.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "map"
	case []any:
		return "list"
	case string:
		return "string"
	case bool:
		return "boolean"
	}
	return "number"
}
