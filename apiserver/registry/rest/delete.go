package rest

import (
	"context"

	"kubeloop/api"
)

// RESTGracefulDeleteStrategy is implemented by kinds whose objects may take
// time to go: CheckGracefulDelete returns the grace period in seconds, 0
// for "remove now". Kinds without it go at once (unless finalizers hold
// them). Kubernetes: registry/rest/delete.go (RESTGracefulDeleteStrategy,
// whose CheckGracefulDelete sets options.GracePeriodSeconds and returns
// whether the delete is graceful; ours returns the period itself).
type RESTGracefulDeleteStrategy interface {
	CheckGracefulDelete(ctx context.Context, obj api.Object, opts *api.DeleteOptions) int64
}

// GarbageCollectionPolicy is what happens to an object's dependents when a
// delete does not say (no propagationPolicy, no orphanDependents).
type GarbageCollectionPolicy string

// The default policies. Kubernetes: registry/rest/delete.go.
const (
	// DeleteDependents: the garbage collector deletes the dependents in the
	// background, the default of most kinds.
	DeleteDependents GarbageCollectionPolicy = "DeleteDependents"
	// OrphanDependents: the dependents are kept and lose their owner
	// reference; batch/v1 Jobs keep this old default for compatibility.
	OrphanDependents GarbageCollectionPolicy = "OrphanDependents"
)

// GarbageCollectionDeleteStrategy is implemented by kinds whose default
// policy is not DeleteDependents. Kubernetes: registry/rest/delete.go
// (GarbageCollectionDeleteStrategy).
type GarbageCollectionDeleteStrategy interface {
	DefaultGarbageCollectionPolicy(ctx context.Context) GarbageCollectionPolicy
}
