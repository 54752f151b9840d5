package deployment

import (
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// NewStorage is the REST storage of deployments and of their status and
// scale subresources. Kubernetes: pkg/registry/apps/deployment/storage/
// storage.go (NewStorage).
func NewStorage(o generic.Options) map[string]rest.Storage {
	store := generic.NewStore(o, NewStrategy(o.Info))
	return map[string]rest.Storage{
		"":       store,
		"status": generic.NewStatusREST(store),
		"scale":  generic.NewScaleREST(store, scaler{}),
	}
}

// scaler is the Scale view of a Deployment, the ReplicaSet's over another
// kind as in Kubernetes: writing it updates spec.replicas through the
// Deployment's own store, so it bumps generation and the Deployment
// controller scales the new ReplicaSet. Kubernetes: scaleFromDeployment.
type scaler struct{}

func (scaler) ScaleOf(obj api.Object) (*api.Scale, error) {
	d, ok := obj.(*api.Deployment)
	if !ok {
		return nil, fmt.Errorf("scale of %T is not supported", obj)
	}
	return generic.ScaleFor(&d.ObjectMeta, d.Spec.Replicas, d.Status.Replicas, d.Spec.Selector)
}

func (scaler) SetReplicas(obj api.Object, replicas int32) error {
	d, ok := obj.(*api.Deployment)
	if !ok {
		return fmt.Errorf("scale of %T is not supported", obj)
	}
	d.Spec.Replicas = &replicas
	return nil
}

func (scaler) ReplicasPath() fieldpath.Path { return fieldpath.MakePath("spec", "replicas") }
