package rest

import (
	"context"

	"kubeloop/api"
	"kubeloop/store"
)

// Storage is the REST storage of one resource or subresource: the object an
// endpoint serves. The endpoint installer asks which of the interfaces
// below it also implements, and serves exactly those verbs.
type Storage interface {
	// New returns an empty object of the kind this endpoint reads and
	// writes (for pods/binding, a Binding).
	New() api.Object
}

// Scoper says whether the objects live in namespaces.
type Scoper interface {
	NamespaceScoped() bool
}

// GroupVersionKindProvider is implemented by subresources whose objects
// are of another kind than their parent (replicasets/scale is an
// autoscaling/v1 Scale, pods/binding a v1 Binding).
type GroupVersionKindProvider interface {
	GroupVersionKind() api.KindInfo
}

// GetOptions, ListOptions and the watch they also describe go to storage
// unchanged: the handler reads them from the query, the registry adds the
// key. Kubernetes converts metainternalversion.ListOptions into
// storage.ListOptions in Store.List; we have one type for both.
type (
	GetOptions  = store.GetOptions
	ListOptions = store.ListOptions
)

// The resourceVersionMatch values.
const (
	ResourceVersionMatchExact        = store.ResourceVersionMatchExact
	ResourceVersionMatchNotOlderThan = store.ResourceVersionMatchNotOlderThan
)

// CreateOptions are the options of a create. Kubernetes: metav1.CreateOptions.
type CreateOptions struct {
	// DryRun, if set (to ["All"], the one value there is), makes the
	// write run every step but the storing of it.
	DryRun []string
}

// UpdateOptions are the options of an update or patch. Kubernetes:
// metav1.UpdateOptions.
type UpdateOptions struct {
	// DryRun is as in CreateOptions.
	DryRun []string
}

// IsDryRun says whether a write's dryRun option asks for a dry run.
// Kubernetes: staging/src/k8s.io/apiserver/pkg/util/dryrun/dryrun.go
// (IsDryRun).
func IsDryRun(dryRun []string) bool { return len(dryRun) > 0 }

// Getter reads one object by name (the namespace is in ctx, see
// request.WithNamespace).
type Getter interface {
	Get(ctx context.Context, name string, opts *GetOptions) (api.Object, error)
}

// Lister reads a collection: one namespace, or all of them.
type Lister interface {
	NewList() api.ListObject
	List(ctx context.Context, opts *ListOptions) (api.ListObject, error)
}

// Watcher streams the changes of a collection.
type Watcher interface {
	Watch(ctx context.Context, opts *ListOptions) (api.Watcher, error)
}

// Creater stores a new object. createValidation is validating admission,
// which the registry calls once the object is complete, just before it is
// stored.
type Creater interface {
	New() api.Object
	Create(ctx context.Context, obj api.Object, createValidation ValidateObjectFunc, opts *CreateOptions) (api.Object, error)
}

// Updater replaces an object by what objInfo makes of the stored one.
// There is no create-on-update: an update of a missing object is 404
// (Kubernetes lets some kinds create that way, AllowCreateOnUpdate).
type Updater interface {
	New() api.Object
	Update(ctx context.Context, name string, objInfo UpdatedObjectInfo, updateValidation ValidateObjectUpdateFunc, opts *UpdateOptions) (api.Object, error)
}

// Patcher can be patched: the patch handler reads through Get's object
// type and writes through Update, with an UpdatedObjectInfo that applies
// the patch to whatever is stored.
type Patcher interface {
	Getter
	Updater
}

// GracefulDeleter deletes one object, gracefully if its strategy asks for a
// grace period or it has finalizers. It returns the object as it was last
// stored: gone, or marked with a deletionTimestamp.
type GracefulDeleter interface {
	Delete(ctx context.Context, name string, deleteValidation ValidateObjectFunc, opts *api.DeleteOptions) (api.Object, error)
}

// CollectionDeleter deletes every object a list selects, each as Delete
// would, and returns them.
type CollectionDeleter interface {
	DeleteCollection(ctx context.Context, deleteValidation ValidateObjectFunc, opts *api.DeleteOptions, listOpts *ListOptions) (api.ListObject, error)
}
