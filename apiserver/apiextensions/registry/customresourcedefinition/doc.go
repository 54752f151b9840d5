// Package customresourcedefinition is the registry of
// apiextensions.k8s.io/v1 CustomResourceDefinitions: their strategy
// (defaults, the validation of package apiextensions/validation, status
// kept apart from spec, status.storedVersions grown from the storage
// version) and their REST storage with the status subresource. Deleting a
// CRD only marks it (the customresourcecleanup.apiextensions.k8s.io
// finalizer, added on create): the finalizer loop of package
// apiextensions/crdserving deletes its custom resources first.
//
// Where it sits: a registry like registry/core/pod, listed in the
// apiserver's restStorageProviders. What makes a CRD served is not here but
// in apiextensions/crdserving, which watches this registry's objects.
//
// Kubernetes counterpart (v1.37.2):
// staging/src/k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition
// (strategy.go: strategy.PrepareForCreate, PrepareForUpdate, Validate,
// statusStrategy; etcd.go: NewREST, REST.Delete).
//
// What we simplify: no dropDisabledFields (every field is enabled); the
// validation runs on the v1 types, not an internal version.
package customresourcedefinition
