package rest

import (
	"context"

	"github.com/google/uuid"

	"kubeloop/api"
)

// RESTCreateStrategy is what a kind adds to a create: the fields it resets
// or sets (a new pod is Pending) and its validation rules. Kubernetes:
// registry/rest/create.go (RESTCreateStrategy).
type RESTCreateStrategy interface {
	// NamespaceScoped says whether objects of the kind live in namespaces.
	NamespaceScoped() bool
	// PrepareForCreate clears what a client may not set (status, on kinds
	// that have one) and sets what every new object of the kind starts
	// with (generation 1 for kinds with a spec).
	PrepareForCreate(ctx context.Context, obj api.Object)
	// Validate checks the object as it is about to be stored; a refusal is
	// a 422 Invalid StatusError.
	Validate(ctx context.Context, obj api.Object) error
}

// BeforeCreate is the kind-independent half of a create: the metadata the
// server owns is set (uid, creationTimestamp) or cleared (resourceVersion,
// deletion), then the strategy prepares the rest. Kubernetes:
// registry/rest/create.go (BeforeCreate, FillObjectMetaSystemFields).
// The store generates the name first (and may try more than one, preparing
// each candidate afresh) and validates afterwards.
func BeforeCreate(strategy RESTCreateStrategy, ctx context.Context, obj api.Object) {
	FillObjectMetaSystemFields(obj.GetObjectMeta())
	strategy.PrepareForCreate(ctx, obj)
}

// FillObjectMetaSystemFields resets everything in metadata a client may not
// choose on create.
func FillObjectMetaSystemFields(m *api.ObjectMeta) {
	m.UID = uuid.NewString()
	m.CreationTimestamp = api.Now()
	m.ResourceVersion = ""
	m.DeletionTimestamp = nil
	m.DeletionGracePeriodSeconds = nil
	m.Generation = 0
}
