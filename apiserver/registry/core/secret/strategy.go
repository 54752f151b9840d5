package secret

import (
	"context"

	"kubeloop/api"
	"kubeloop/apiserver/registry/generic"
)

// Strategy is the Secret strategy: the default strategy (no spec, no
// status: nothing to reset, no generation) and the Secret rules.
// Kubernetes: pkg/registry/core/secret/strategy.go (strategy).
type Strategy struct {
	generic.DefaultStrategy
}

// NewStrategy is the strategy of the secrets resource info describes.
func NewStrategy(info *api.ResourceInfo) Strategy {
	return Strategy{generic.DefaultStrategy{Info: info}}
}

// PrepareForUpdate keeps the stored type when the update leaves it out,
// as Kubernetes does. (Defaulting sets Opaque first, so that only happens
// for writes that bypass it; validation refuses any real change of type.)
// Kubernetes: strategy.PrepareForUpdate.
func (s Strategy) PrepareForUpdate(ctx context.Context, obj, old api.Object) {
	s.DefaultStrategy.PrepareForUpdate(ctx, obj, old)
	if sec := obj.(*api.Secret); sec.Type == "" {
		sec.Type = old.(*api.Secret).Type
	}
}
