package replicaset

import (
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// NewStorage is the REST storage of replicasets and of their status and
// scale subresources. Kubernetes: pkg/registry/apps/replicaset/storage/
// storage.go (NewStorage).
func NewStorage(o generic.Options) map[string]rest.Storage {
	store := generic.NewStore(o, NewStrategy(o.Info))
	return map[string]rest.Storage{
		"":       store,
		"status": generic.NewStatusREST(store),
		"scale":  generic.NewScaleREST(store, scaler{}),
	}
}

// scaler is the Scale view of a ReplicaSet: spec.replicas (1 when unset,
// as defaulting would make it), status.replicas and the selector.
// Kubernetes: scaleFromReplicaSet.
type scaler struct{}

func (scaler) ScaleOf(obj api.Object) (*api.Scale, error) {
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return nil, fmt.Errorf("scale of %T is not supported", obj)
	}
	return generic.ScaleFor(&rs.ObjectMeta, rs.Spec.Replicas, rs.Status.Replicas, rs.Spec.Selector)
}

func (scaler) SetReplicas(obj api.Object, replicas int32) error {
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return fmt.Errorf("scale of %T is not supported", obj)
	}
	rs.Spec.Replicas = &replicas
	return nil
}

func (scaler) ReplicasPath() fieldpath.Path { return fieldpath.MakePath("spec", "replicas") }
