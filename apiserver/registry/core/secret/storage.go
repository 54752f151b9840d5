package secret

import (
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// NewStorage is the REST storage of secrets. Kubernetes:
// pkg/registry/core/secret/storage/storage.go (NewREST).
func NewStorage(o generic.Options) map[string]rest.Storage {
	return map[string]rest.Storage{"": generic.NewStore(o, NewStrategy(o.Info))}
}
