package store

import (
	"context"

	"kubeloop/api"
)

// Interface is storage for one resource. The etcd-backed Store implements it,
// and so does the watch cache, which serves reads from memory and passes
// writes through: the apiserver holds an Interface and does not know which.
//
// Keys are full etcd keys (ResourceInfo.Key); List and Watch take a prefix
// (ResourceInfo.KeyPrefix, or that plus "<namespace>/").
//
// Errors are *api.StatusError values, so callers test them with
// api.IsNotFound, api.IsAlreadyExists, api.IsConflict, api.IsExpired,
// api.IsTooLargeResourceVersion and api.IsInvalid.
type Interface interface {
	// Create stores obj under key if nothing is there. obj must not carry a
	// resourceVersion, and is the caller's no more: it is returned as the
	// stored object, with its apiVersion, kind and new RV set.
	Create(ctx context.Context, key string, obj api.Object) (api.Object, error)

	// Get reads one object.
	Get(ctx context.Context, key string, opts GetOptions) (api.Object, error)

	// GuaranteedUpdate reads the object (or starts from cachedExisting),
	// checks preconditions, calls tryUpdate with a copy it may change, and
	// writes the result if the object has not changed in etcd in between;
	// if it has, it retries with the current value. If tryUpdate returns an
	// object that encodes to the same bytes, nothing is written and the RV
	// stays. An error from tryUpdate is returned as is.
	GuaranteedUpdate(ctx context.Context, key string, preconditions *Preconditions,
		tryUpdate UpdateFunc, cachedExisting api.Object) (api.Object, error)

	// Delete removes the object if the preconditions hold and validate (if
	// not nil) accepts the current object. The returned object is the last
	// state, with the delete revision as its resourceVersion.
	Delete(ctx context.Context, key string, preconditions *Preconditions,
		validate ValidateDeletionFunc, cachedExisting api.Object) (api.Object, error)

	// List returns the objects under prefix that match opts.Predicate.
	List(ctx context.Context, prefix string, opts ListOptions) (*ListResult, error)

	// Watch streams changes under prefix that match opts.Predicate:
	// with ResourceVersion "N", every change after revision N, in order;
	// with "" or "0", an ADDED event per current object, then changes.
	// A DELETED event carries the last state with the delete revision.
	// A revision that has been compacted fails with an Expired error.
	Watch(ctx context.Context, prefix string, opts ListOptions) (api.Watcher, error)

	// CurrentResourceVersion is etcd's current revision: what a consistent
	// read must at least reflect.
	CurrentResourceVersion(ctx context.Context) (uint64, error)
}

// UpdateFunc computes the new object from the current one. It receives the
// store's own copy, which it may change and return; if it needs the old
// state afterwards (to compare), it copies first.
type UpdateFunc func(current api.Object) (api.Object, error)

// ValidateDeletionFunc may refuse a delete after seeing the current object.
type ValidateDeletionFunc func(current api.Object) error

// Preconditions must hold for an update or delete to go ahead. A failed
// precondition is a Conflict.
type Preconditions struct {
	UID             *string `json:"uid,omitempty"`
	ResourceVersion *string `json:"resourceVersion,omitempty"`
}

// GetOptions tunes Get.
type GetOptions struct {
	// ResourceVersion "" (or "0" for the cache) reads the latest; "N" reads
	// at least as new as N (the store reads the latest and checks).
	ResourceVersion string
}

// ListOptions tunes List and Watch.
type ListOptions struct {
	// ResourceVersion and ResourceVersionMatch have their Kubernetes meaning:
	// "" is a consistent (latest) read; "0" is any freshness; "N" with
	// match "Exact" reads at revision N, with "NotOlderThan" (or none) at
	// least as new as N.
	ResourceVersion      string
	ResourceVersionMatch string
	Predicate            SelectionPredicate
	// Watch only.
	AllowWatchBookmarks bool
	SendInitialEvents   *bool
}

// The values of ResourceVersionMatch.
const (
	ResourceVersionMatchNotOlderThan = "NotOlderThan"
	ResourceVersionMatchExact        = "Exact"
)

// SelectionPredicate selects objects by labels and fields, and pages lists.
// Nil selectors match everything.
type SelectionPredicate struct {
	Label    api.Selector
	Field    api.FieldSelector
	Limit    int64
	Continue string
}

// ListResult is one page of a List.
type ListResult struct {
	Items              []api.Object
	ResourceVersion    uint64
	Continue           string
	RemainingItemCount *int64
}
