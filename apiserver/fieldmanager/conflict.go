package fieldmanager

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// Conflict is one field an apply would change that another manager owns.
type Conflict struct {
	Manager *Entry
	Path    fieldpath.Path
}

// ConflictError refuses an apply without force: one Conflict per field.
// Callers answer it with Status(), a 409.
type ConflictError struct {
	Conflicts []Conflict
}

// conflictsFrom lists the conflicts of each manager's set, managers in
// identity order and each one's paths in set order.
func conflictsFrom(sets map[*Entry]*fieldpath.Set) *ConflictError {
	var managers []*Entry
	for e := range sets {
		managers = append(managers, e)
	}
	slices.SortFunc(managers, func(a, b *Entry) int { return strings.Compare(a.identifier(), b.identifier()) })
	out := &ConflictError{}
	for _, e := range managers {
		for _, p := range sets[e].Paths() {
			out.Conflicts = append(out.Conflicts, Conflict{Manager: e, Path: p})
		}
	}
	return out
}

// describeManager names a manager in a conflict message: its name, the
// subresource if any, and for an Update the API version it wrote.
// Kubernetes: internal/conflict.go printManager (the identity it prints
// carries no time).
func describeManager(e *Entry) string {
	s := fmt.Sprintf("%q", e.Manager)
	if e.Subresource != "" {
		s += fmt.Sprintf(" with subresource %q", e.Subresource)
	}
	if e.Operation == api.ManagedFieldsOperationUpdate {
		s += " using " + e.APIVersion
	}
	return s
}

// Error is Kubernetes' message: "Apply failed with 1 conflict: conflict
// with "m": .data.a", or for several the paths listed per manager.
// Kubernetes: internal/conflict.go getConflictMessage.
func (e *ConflictError) Error() string {
	if len(e.Conflicts) == 1 {
		c := e.Conflicts[0]
		return fmt.Sprintf("Apply failed with 1 conflict: conflict with %s: %s", describeManager(c.Manager), c.Path)
	}
	var lines []string
	var last *Entry
	for _, c := range e.Conflicts {
		if c.Manager != last {
			lines = append(lines, fmt.Sprintf("conflicts with %s:", describeManager(c.Manager)))
			last = c.Manager
		}
		lines = append(lines, "- "+c.Path.String())
	}
	return fmt.Sprintf("Apply failed with %d conflicts: %s", len(e.Conflicts), strings.Join(lines, "\n"))
}

// Status is the 409 Kubernetes answers with, one FieldManagerConflict
// cause per field. Kubernetes: internal/conflict.go NewConflictError and
// apimachinery errors.NewApplyConflict.
func (e *ConflictError) Status() *api.StatusError {
	causes := make([]api.StatusCause, 0, len(e.Conflicts))
	for _, c := range e.Conflicts {
		causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldManagerConflict,
			Message: "conflict with " + describeManager(c.Manager), Field: c.Path.String()})
	}
	return &api.StatusError{ErrStatus: api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure, Code: http.StatusConflict, Reason: api.StatusReasonConflict,
		Message: e.Error(), Details: &api.StatusDetails{Causes: causes}}}
}
