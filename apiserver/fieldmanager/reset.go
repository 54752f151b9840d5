package fieldmanager

import (
	"slices"

	"kubeloop/apiserver/fieldmanager/fieldpath"
	"kubeloop/apiserver/fieldmanager/typed"
)

// ResetFieldsFor is what a write through an endpoint cannot change,
// because the registry's strategy puts the stored value back: the main
// resource of a kind with a status keeps the stored status; the status
// subresource keeps everything but status, labels and annotations. Nobody
// may own such fields through that endpoint, and changes there are no
// conflict. A subresource other than status resets nothing here (its
// writes are not tracked). Kubernetes: each strategy's GetResetFields
// (pkg/registry/core/pod/strategy.go podStrategy.GetResetFields and
// podStatusStrategy.GetResetFields), handed to SMD as the Updater's
// IgnoreFilter; Kubernetes lists them per kind, we derive them from the
// schema because every kubeloop status strategy keeps the same fields.
func ResetFieldsFor(t *typed.Type, subresource string) *fieldpath.Set {
	reset := fieldpath.NewSet()
	if t == nil || t.Kind != typed.Struct {
		return reset
	}
	_, hasStatus := t.Fields["status"]
	switch subresource {
	case "":
		if hasStatus {
			reset.Insert(fieldpath.MakePath("status"))
		}
	case "status":
		for _, name := range sortedFields(t) {
			switch name {
			case "apiVersion", "kind", "status":
			case "metadata":
				for _, m := range sortedFields(t.Fields["metadata"]) {
					if m != "labels" && m != "annotations" {
						reset.Insert(fieldpath.MakePath("metadata", m))
					}
				}
			default:
				reset.Insert(fieldpath.MakePath(name))
			}
		}
	}
	return reset
}

func sortedFields(t *typed.Type) []string {
	if t == nil {
		return nil
	}
	var names []string
	for name := range t.Fields {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// withoutReset drops the reset fields, and everything below them, from s.
func (f *FieldManager) withoutReset(s *fieldpath.Set) *fieldpath.Set {
	if f.ResetFields.Empty() || !touches(s, f.ResetFields) {
		return s // update_fast.go
	}
	return s.RecursiveDifference(f.ResetFields)
}

// filterComparison drops changes to reset fields: the strategy undoes
// them, so nobody gains, loses or conflicts over them. Kubernetes: SMD's
// Comparison.FilterFields with the IgnoreFilter.
func (f *FieldManager) filterComparison(c *typed.Comparison) *typed.Comparison {
	if f.ResetFields.Empty() || !touches(c.Added, f.ResetFields) && !touches(c.Removed, f.ResetFields) && !touches(c.Modified, f.ResetFields) {
		return c // update_fast.go
	}
	return &typed.Comparison{Added: f.withoutReset(c.Added), Removed: f.withoutReset(c.Removed), Modified: f.withoutReset(c.Modified)}
}
