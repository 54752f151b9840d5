package field

import (
	"strings"

	"kubeloop/api"
)

// ErrorList is every problem found; checks never stop at the first one.
type ErrorList []*Error

// Causes are the Status causes of an Invalid reply, one per error, exact
// duplicates dropped (Kubernetes drops them when it aggregates).
func (l ErrorList) Causes() []api.StatusCause {
	out := make([]api.StatusCause, 0, len(l))
	seen := make(map[string]bool, len(l))
	for _, e := range l {
		if key := e.Error(); !seen[key] {
			seen[key] = true
			out = append(out, api.StatusCause{Type: e.Type, Message: e.Body(), Field: e.Field.String()})
		}
	}
	return out
}

// ToStatusError is the 422 Invalid reply about the object group/kind
// name, or nil for an empty list.
func (l ErrorList) ToStatusError(group, kind, name string) *api.StatusError {
	if len(l) == 0 {
		return nil
	}
	return api.NewInvalid(group, kind, name, l.Causes())
}

// Error joins the messages as Kubernetes' aggregate does:
// "a: x" for one, "[a: x, b: y]" for several.
func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}
