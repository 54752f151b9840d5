// Package rest is the contract between the endpoint handlers and the
// registry: the interfaces a resource's REST storage implements (Getter,
// Lister, Watcher, Creater, Updater, Patcher, GracefulDeleter,
// CollectionDeleter, TableConvertor), the strategy interfaces a kind
// implements (RESTCreateStrategy, RESTUpdateStrategy,
// RESTGracefulDeleteStrategy), and the kind-independent steps every write
// takes (BeforeCreate, BeforeUpdate) and the way admission is handed down
// (ValidateObjectFunc, AdmissionToValidateObjectFunc).
//
// Where it sits on the spine: between the handlers (which call these
// interfaces and know no kind) and the registries (registry/generic and the
// kind packages, which implement them). A write travels
//
//	handler: decode → mutating admission → Creater.Create(obj, createValidation)
//	registry: BeforeCreate (system fields, strategy.PrepareForCreate) →
//	          strategy.Validate → createValidation → storage
//
// Kubernetes counterparts (v1.37.2): staging/src/k8s.io/apiserver/pkg/
// registry/rest/rest.go (Storage, Getter, Lister, Watcher, Creater,
// Updater, Patcher, GracefulDeleter, CollectionDeleter), create.go
// (RESTCreateStrategy, BeforeCreate, AdmissionToValidateObjectFunc,
// FillObjectMetaSystemFields), update.go (RESTUpdateStrategy, BeforeUpdate,
// UpdatedObjectInfo, DefaultUpdatedObjectInfo), delete.go
// (RESTGracefulDeleteStrategy) and table.go (TableConvertor); the Table
// types are metav1.Table in staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go.
//
// What we simplify: no versioned and internal objects (the Go type is the
// wire type), no create-on-update, no canonicalization or warnings hooks
// on strategies, and CheckGracefulDelete returns the grace period instead
// of editing the options.
package rest
