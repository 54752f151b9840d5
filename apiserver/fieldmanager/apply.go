package fieldmanager

import (
	"fmt"
	"reflect"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
	"kubeloop/apiserver/fieldmanager/typed"
)

// Apply merges an applied configuration (the decoded apply patch) into
// liveObj for manager. It returns the merged object as a JSON value, for
// the caller to decode into the kind's Go type, and the managedFields to
// store with it. For an apply that creates the object, liveObj is an
// empty object of the kind.
//
// The applier's Apply entry becomes exactly the fields of its
// configuration. Fields it applied last time and no longer does are
// removed from the object unless another manager owns them or something
// below them (then only the applier's ownership goes). A field another
// manager owns that the apply would change is a conflict: without force
// the apply fails with a *ConflictError; with force the field moves to the
// applier. Kubernetes: merge/update.go Updater.Apply and prune,
// structuredmerge.go Apply, skipnonapplied.go Apply (before-first-apply).
func (f *FieldManager) Apply(liveObj api.Object, config any, manager string, force bool) (any, []api.ManagedFieldsEntry, error) {
	cfg, ok := config.(map[string]any)
	if !ok {
		return nil, nil, &typed.FieldError{Message: fmt.Sprintf("expected an object, got %T", config)}
	}
	if md, ok := cfg["metadata"].(map[string]any); ok && md["managedFields"] != nil {
		return nil, nil, &typed.FieldError{Path: ".metadata.managedFields", Message: "metadata.managedFields must be nil"}
	}
	managed, err := f.decode(liveObj.GetObjectMeta().ManagedFields)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to decode managed fields: %w", err)
	}
	live, err := typed.ToValueWithoutManagedFields(liveObj)
	if err != nil {
		return nil, nil, err
	}
	dropManagedFields(live)
	if managed.Len() == 0 && liveObj.GetObjectMeta().UID != "" {
		// An object nobody tracked yet: what it holds now belongs to
		// "before-first-apply", so the applier conflicts with it.
		empty, err := typed.ToValue(reflect.New(reflect.TypeOf(liveObj).Elem()).Interface())
		if err != nil {
			return nil, nil, err
		}
		cmp, err := typed.Compare(empty, live, f.Type)
		if err != nil {
			return nil, nil, err
		}
		f.updateManaged(managed, cmp, f.entryFor(beforeFirstApplyManager, api.ManagedFieldsOperationUpdate))
	}

	merged, err := typed.Merge(live, cfg, f.Type)
	if err != nil {
		return nil, nil, err
	}
	applied, err := typed.ToFieldSet(cfg, f.Type)
	if err != nil {
		return nil, nil, err
	}
	applied = f.withoutReset(applied)
	self := f.entryFor(manager, api.ManagedFieldsOperationApply)
	var lastSet *fieldpath.Set
	if prev := managed.Get(*self); prev != nil {
		lastSet = prev.Fields
		self.Time = prev.Time
	}
	merged = f.prune(merged, managed, self, lastSet, applied)

	if err := f.takeOwnership(managed, live, merged, self, force); err != nil {
		return nil, nil, err
	}
	self.Fields = applied.Difference(stripFields)
	if cmp, err := typed.Compare(live, merged, f.Type); err == nil && !cmp.IsSame() || self.Time == nil {
		now := api.NewTime(f.now())
		self.Time = &now
	}
	if self.Fields.Empty() {
		delete(managed.entries, self.identifier())
	} else {
		managed.Put(self)
	}
	encoded, err := managed.Encode()
	if err != nil {
		return nil, nil, err
	}
	return merged, encoded, nil
}

// prune removes what the applier owned last time and no longer applies,
// unless another manager owns it or something below it.
func (f *FieldManager) prune(merged any, managed *Managed, self *Entry, lastSet, applied *fieldpath.Set) any {
	if lastSet.Empty() {
		return merged
	}
	others := fieldpath.NewSet()
	for id, e := range managed.entries {
		if id != self.identifier() {
			others = others.Union(e.Fields)
		}
	}
	var remove []fieldpath.Path
	for _, p := range lastSet.Difference(applied).Paths() {
		if others.Has(p) || ownsBelow(others, p) || ownsBelow(applied, p) {
			continue
		}
		remove = append(remove, p)
	}
	return typed.RemovePaths(merged, remove, f.Type)
}

// ownsBelow reports whether s holds any path strictly below p.
func ownsBelow(s *fieldpath.Set, p fieldpath.Path) bool {
	for _, pe := range p {
		s = s.Descend(pe)
	}
	return !s.Empty()
}

// takeOwnership compares live with merged: another manager's fields that
// changed are conflicts (refused unless force, else taken), and removed
// fields leave every other manager. Kubernetes: merge/update.go update.
func (f *FieldManager) takeOwnership(managed *Managed, live, merged any, self *Entry, force bool) error {
	cmp, err := typed.Compare(live, merged, f.Type)
	if err != nil {
		return err
	}
	cmp = f.filterComparison(cmp)
	changed := cmp.Modified.Union(cmp.Added)
	conflicts := map[*Entry]*fieldpath.Set{}
	for id, e := range managed.entries {
		if id == self.identifier() {
			continue
		}
		if c := e.Fields.Intersection(changed); !c.Empty() {
			conflicts[e] = c
		}
	}
	if len(conflicts) > 0 && !force {
		return conflictsFrom(conflicts)
	}
	for id, e := range managed.entries {
		if id == self.identifier() {
			continue
		}
		e.Fields = e.Fields.Difference(changed).Difference(cmp.Removed)
		if e.Fields.Empty() {
			delete(managed.entries, id)
		}
	}
	return nil
}

// dropManagedFields removes metadata.managedFields from a value: ownership
// is not itself owned or merged.
func dropManagedFields(v any) {
	if m, ok := v.(map[string]any); ok {
		if md, ok := m["metadata"].(map[string]any); ok {
			delete(md, "managedFields")
		}
	}
}
