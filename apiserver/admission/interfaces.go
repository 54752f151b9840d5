package admission

import (
	"context"

	"kubeloop/api"
)

// Operation is the kind of write being admitted.
type Operation string

// The operations admission sees, with Kubernetes' names.
const (
	Create Operation = "CREATE"
	Update Operation = "UPDATE"
	Delete Operation = "DELETE"
)

// Attributes describe one write: what, where, and the objects involved.
// Object is the object about to be stored (nil on Delete); OldObject is the
// stored one (nil on Create). Mutating plugins may change Object in place.
type Attributes struct {
	Operation   Operation
	Resource    *api.ResourceInfo
	Subresource string // "", "status", "scale", "binding"
	Namespace   string
	Name        string
	Object      api.Object
	OldObject   api.Object
}

// MutationInterface is a plugin that may change the object (defaulting).
type MutationInterface interface {
	Admit(ctx context.Context, a *Attributes) error
}

// ValidationInterface is a plugin that may only accept or refuse.
// Refusals are *api.StatusError values (Invalid with causes, Forbidden, NotFound).
type ValidationInterface interface {
	Validate(ctx context.Context, a *Attributes) error
}

// NamespaceGetter is how NamespaceLifecycle learns whether a namespace exists
// and is not terminating; the apiserver passes its namespace storage (or cache).
type NamespaceGetter interface {
	GetNamespace(ctx context.Context, name string) (*api.Namespace, error)
}

// Interface is a whole admission chain: the mutating phase, then the
// validating one. Chain implements it; the apiserver takes any.
type Interface interface {
	MutationInterface
	ValidationInterface
}
