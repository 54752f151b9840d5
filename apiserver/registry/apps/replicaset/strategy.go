package replicaset

import (
	"kubeloop/api"
	"kubeloop/apiserver/registry/generic"
)

// Strategy is the ReplicaSet strategy. A ReplicaSet has nothing of its own
// beyond Kubernetes' conventions — status ignored on create and kept on
// update, generation bumped on every spec change (which is how the
// controller's status.observedGeneration tells a new spec from an old
// one) — so it is the default strategy. Kubernetes:
// pkg/registry/apps/replicaset/strategy.go (rsStrategy).
type Strategy struct {
	generic.DefaultStrategy
}

// NewStrategy is the strategy of the replicasets resource info describes.
func NewStrategy(info *api.ResourceInfo) Strategy {
	return Strategy{generic.DefaultStrategy{Info: info}}
}
