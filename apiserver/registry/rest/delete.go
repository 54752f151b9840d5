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
