package pod

import (
	"context"

	"kubeloop/api"
	"kubeloop/apiserver/registry/generic"
)

// Strategy is the pod strategy: the default strategy (status cleared on
// create and kept on update, generation counted on spec changes, the pod
// validation rules) plus what is a pod's own. Kubernetes:
// pkg/registry/core/pod/strategy.go (podStrategy).
type Strategy struct {
	generic.DefaultStrategy
}

// NewStrategy is the strategy of the pods resource info describes.
func NewStrategy(info *api.ResourceInfo) Strategy {
	return Strategy{generic.DefaultStrategy{Info: info}}
}

// PrepareForCreate: a new pod is Pending, whatever status the client sent.
// Kubernetes: podStrategy.PrepareForCreate.
func (s Strategy) PrepareForCreate(ctx context.Context, obj api.Object) {
	s.DefaultStrategy.PrepareForCreate(ctx, obj)
	obj.(*api.Pod).Status.Phase = api.PodPending
}

// CheckGracefulDelete is how long the pod may take to go. Only a pod bound
// to a node has a grace period — its kubelet must stop the containers and
// then removes the pod with gracePeriodSeconds 0 — taken from the delete
// options, else from the pod's terminationGracePeriodSeconds, else 30 s.
// A pod that never reached a node, or has finished, goes at once.
// Kubernetes: podStrategy.CheckGracefulDelete.
func (Strategy) CheckGracefulDelete(_ context.Context, obj api.Object, opts *api.DeleteOptions) int64 {
	pod := obj.(*api.Pod)
	if pod.Spec.NodeName == "" || pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed {
		return 0
	}
	grace := int64(30)
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		grace = *pod.Spec.TerminationGracePeriodSeconds
	}
	if opts.GracePeriodSeconds != nil {
		grace = *opts.GracePeriodSeconds
	}
	return max(grace, 0)
}
