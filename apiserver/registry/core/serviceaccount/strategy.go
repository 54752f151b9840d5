package serviceaccount

import (
	"context"

	"kubeloop/api"
	"kubeloop/apiserver/registry/generic"
)

// Strategy is the ServiceAccount strategy. Kubernetes:
// pkg/registry/core/serviceaccount/strategy.go (strategy).
type Strategy struct {
	generic.DefaultStrategy
}

// NewStrategy is the strategy of the serviceaccounts resource info describes.
func NewStrategy(info *api.ResourceInfo) Strategy {
	return Strategy{generic.DefaultStrategy{Info: info}}
}

// PrepareForCreate trims the secret references.
func (s Strategy) PrepareForCreate(ctx context.Context, obj api.Object) {
	s.DefaultStrategy.PrepareForCreate(ctx, obj)
	cleanSecretReferences(obj.(*api.ServiceAccount))
}

// PrepareForUpdate trims the secret references.
func (s Strategy) PrepareForUpdate(ctx context.Context, obj, old api.Object) {
	s.DefaultStrategy.PrepareForUpdate(ctx, obj, old)
	cleanSecretReferences(obj.(*api.ServiceAccount))
}

// cleanSecretReferences keeps only the name of each secret reference: the
// Secret is always in the account's namespace, and a uid or resourceVersion
// there would only go stale. Kubernetes: cleanSecretReferences.
func cleanSecretReferences(sa *api.ServiceAccount) {
	for i, ref := range sa.Secrets {
		sa.Secrets[i] = api.ObjectReference{Name: ref.Name}
	}
}
