package serviceaccount

import (
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// NewStorage is the REST storage of serviceaccounts. Kubernetes:
// pkg/registry/core/serviceaccount/storage/storage.go (NewREST).
func NewStorage(o generic.Options) map[string]rest.Storage {
	return map[string]rest.Storage{"": generic.NewStore(o, NewStrategy(o.Info))}
}
