package fieldmanager

// Skip on a first reading: a speed-up. A create is an Update from an
// empty object (update.go): every field the new object sets is added, so
// CompareObjects builds the whole field set path by path, the stripped
// and reset fields are then taken out of it and the rest is written as
// FieldsV1. recordCreate writes that FieldsV1 in one walk of the new
// object (typed.CreatedFields) and makes the writer's one entry directly;
// where the walk is not sure it says so and the plain path runs.
// BenchmarkCreatePod (bench_test.go) and BenchmarkCreateUpdateManagedFields
// (apiserver) measure it; TestCreateFastEqualsComparison and
// typed.TestCreatedFieldsEqualsCompareOfEmpty hold it to the plain path.

import (
	"reflect"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
	"kubeloop/apiserver/fieldmanager/typed"
)

// createLeave is stripFields without metadata, which only its children
// are: those paths are scalars, so leaving them out with everything below
// is stripping them. createLeaveStatus adds the main resource's reset
// status. createParents: metadata counts as a parent, never a member.
var (
	createParents     = fieldpath.NewSet(fieldpath.MakePath("metadata"))
	createLeave       = stripFields.Difference(createParents)
	statusOnly        = fieldpath.NewSet(fieldpath.MakePath("status"))
	createLeaveStatus = createLeave.Union(statusOnly)
)

// recordCreate sets newObj's managedFields when liveObj is the empty
// object of a create and the request sent none; false: take the plain
// path.
func (f *FieldManager) recordCreate(liveObj, newObj api.Object, manager string) bool {
	if f.Subresource != "" || len(newObj.GetObjectMeta().ManagedFields) != 0 {
		return false
	}
	leave := createLeave
	switch {
	case f.ResetFields.Empty():
	case f.ResetFields.Equals(statusOnly):
		leave = createLeaveStatus
	default:
		return false
	}
	live := reflect.ValueOf(liveObj)
	if live.Kind() != reflect.Pointer || live.IsNil() || !live.Elem().IsZero() {
		return false
	}
	raw, ok := typed.CreatedFields(newObj, f.Type, leave, createParents)
	if !ok {
		return false
	}
	if string(raw) == "{}" { // the writer gained nothing: no entry
		newObj.GetObjectMeta().ManagedFields = nil
		return true
	}
	e, now := f.entryFor(manager, api.ManagedFieldsOperationUpdate), api.NewTime(f.now())
	newObj.GetObjectMeta().ManagedFields = []api.ManagedFieldsEntry{{Manager: e.Manager, Operation: e.Operation,
		APIVersion: e.APIVersion, Time: &now, FieldsType: "FieldsV1", FieldsV1: &api.FieldsV1{Raw: raw}, Subresource: e.Subresource}}
	return true
}
