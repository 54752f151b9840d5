// Package fieldmanager keeps metadata.managedFields: for every write it
// works out which fields the writer set and records them under the
// writer's name, taking them away from whoever owned them before. It is
// how server-side apply knows who owns what without locks: ownership is
// data on the object, moved by each write.
//
// Where it sits: the endpoint handlers call it between decoding a request
// and handing the object to the registry (create, update, patch and their
// subresources); it reads the live and the new object and returns the new
// object's managedFields.
//
// Kubernetes: k8s.io/apimachinery/pkg/util/managedfields/internal at
// v0.37.2 (Kubernetes v1.37.2): fieldmanager.go FieldManager.Update and
// decodeLiveOrNew, managedfields.go DecodeManagedFields /
// BuildManagerIdentifier / sortEncodedManagedFields, a chain of managers
// (skipnonapplied.go, capmanagers.go, buildmanagerinfo.go,
// managedfieldsupdater.go, stripmeta.go, structuredmerge.go) and
// sigs.k8s.io/structured-merge-diff/v6/merge/update.go Updater.Update; and
// staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go
// managerOrUserAgent for the default manager name.
//
// What we simplify: the chain of Manager decorators is one function in
// Kubernetes' order; there is one API version per kind, so no version
// conversion of field sets; no last-applied-configuration annotation
// upgrade (lastappliedmanager.go).
package fieldmanager
