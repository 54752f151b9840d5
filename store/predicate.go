package store

import "kubeloop/api"

// Matches reports whether obj passes the label and field selectors. Field
// values come from info.ObjectFields, so every kind gets metadata.name and
// metadata.namespace for free.
func (p SelectionPredicate) Matches(info *api.ResourceInfo, obj api.Object) bool {
	if p.Label != nil && !p.Label.Empty() && !p.Label.Matches(obj.GetObjectMeta().Labels) {
		return false
	}
	if p.Field != nil && !p.Field.Empty() && !p.Field.Matches(info.ObjectFields(obj)) {
		return false
	}
	return true
}

// Empty is true when the predicate selects everything, which lets List and
// Watch skip decoding objects they do not need.
func (p SelectionPredicate) Empty() bool {
	return (p.Label == nil || p.Label.Empty()) && (p.Field == nil || p.Field.Empty())
}
