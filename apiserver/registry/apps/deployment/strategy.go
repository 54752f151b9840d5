package deployment

import (
	"context"

	"kubeloop/api"
	"kubeloop/apiserver/registry/generic"
)

// Strategy is the Deployment strategy: the default one (status cleared on
// create and kept on update, generation 1 on create) with Kubernetes'
// generation rule for Deployments. Kubernetes:
// pkg/registry/apps/deployment/strategy.go (deploymentStrategy).
type Strategy struct {
	generic.DefaultStrategy
}

// NewStrategy is the strategy of the deployments resource info describes.
func NewStrategy(info *api.ResourceInfo) Strategy {
	return Strategy{generic.DefaultStrategy{Info: info}}
}

// PrepareForUpdate keeps the stored status and bumps generation when the
// spec or the annotations changed: the controller copies a Deployment's
// annotations onto its ReplicaSets, so a new annotation is work for it just
// like a new spec. Kubernetes: deploymentStrategy.PrepareForUpdate.
func (s Strategy) PrepareForUpdate(ctx context.Context, obj, old api.Object) {
	s.DefaultStrategy.PrepareForUpdate(ctx, obj, old)
	m, om := obj.GetObjectMeta(), old.GetObjectMeta()
	if m.Generation == om.Generation && !api.SemanticEqual(&m.Annotations, &om.Annotations) {
		m.Generation = om.Generation + 1
	}
}
