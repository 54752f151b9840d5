package job

import (
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// NewStorage is the REST storage of jobs and of their status subresource.
// Kubernetes: pkg/registry/batch/job/storage/storage.go (NewStorage).
func NewStorage(o generic.Options) map[string]rest.Storage {
	store := generic.NewStore(o, NewStrategy(o.Info))
	return map[string]rest.Storage{
		"":       store,
		"status": generic.NewStatusREST(store),
	}
}
