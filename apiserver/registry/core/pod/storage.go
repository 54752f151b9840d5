package pod

import (
	"context"
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// NewStorage is the REST storage of pods and of their status and binding
// subresources. Kubernetes: pkg/registry/core/pod/storage/storage.go
// (NewStorage).
func NewStorage(o generic.Options) map[string]rest.Storage {
	store := generic.NewStore(o, NewStrategy(o.Info))
	return map[string]rest.Storage{
		"":        store,
		"status":  generic.NewStatusREST(store),
		"binding": &BindingREST{store: store},
	}
}

// BindingREST serves POST pods/NAME/binding: the scheduler's decision,
// written once into spec.nodeName. Kubernetes: BindingREST.
type BindingREST struct {
	store *generic.Store
}

var (
	_ rest.Creater                  = (*BindingREST)(nil)
	_ rest.GroupVersionKindProvider = (*BindingREST)(nil)
)

// New is an empty Binding.
func (r *BindingREST) New() api.Object { return &api.Binding{} }

// GroupVersionKind is v1 Binding.
func (r *BindingREST) GroupVersionKind() api.KindInfo {
	k, _ := api.SubresourceKind("binding")
	return k
}

// Create binds the pod the Binding names to its target node. The Binding
// is validated and admitted; the write of the pod that follows is the
// registry's own and is not admitted again (pod updates may not change
// spec.nodeName). Kubernetes: BindingREST.Create.
//
// Kubernetes does not check that the node exists, and neither do we: a pod
// bound to a missing node simply never starts.
func (r *BindingREST) Create(ctx context.Context, obj api.Object, createValidation rest.ValidateObjectFunc, opts *rest.CreateOptions) (api.Object, error) {
	b, ok := obj.(*api.Binding)
	if !ok {
		return nil, api.NewBadRequest(fmt.Sprintf("not a Binding: %T", obj))
	}
	if err := admission.ValidateCreate(r.store.Info, "binding", b); err != nil {
		return nil, err
	}
	if createValidation != nil {
		if err := createValidation(ctx, b.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	if _, err := r.assignPod(ctx, b, rest.IsDryRun(opts.DryRun)); err != nil {
		return nil, err
	}
	return &api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusSuccess,
		Code:     201,
	}, nil
}

// assignPod sets spec.nodeName once, through the storage's
// read-modify-write; a dry run checks that it could and changes nothing.
// Kubernetes: BindingREST.assignPod, setPodNodeAndMetadata.
func (r *BindingREST) assignPod(ctx context.Context, b *api.Binding, dryRun bool) (api.Object, error) {
	node := b.Target.Name
	out, err := r.store.Storage.GuaranteedUpdate(ctx, r.store.KeyFunc(ctx, b.Name), nil, func(cur api.Object) (api.Object, error) {
		pod, ok := cur.(*api.Pod)
		if !ok {
			return nil, fmt.Errorf("binding of %T is not supported", cur)
		}
		gr := api.GroupResource{Resource: "pods/binding"}
		if pod.DeletionTimestamp != nil {
			return nil, api.NewConflict(gr, pod.Name, fmt.Errorf("pod %s is being deleted, cannot be assigned to a host", pod.Name))
		}
		if pod.Spec.NodeName != "" {
			return nil, api.NewConflict(gr, pod.Name, fmt.Errorf("pod %s is already assigned to node %q", pod.Name, pod.Spec.NodeName))
		}
		if b.UID != "" && b.UID != pod.UID {
			return nil, api.NewConflict(gr, pod.Name, fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", b.UID, pod.UID))
		}
		pod.Spec.NodeName = node
		setPodScheduled(pod)
		// The spec changed (nodeName was empty), so generation moves.
		pod.Generation++
		return pod, nil
	}, dryRun)
	return out, err
}

// setPodScheduled records the scheduling in the PodScheduled condition, as
// assignPod does.
func setPodScheduled(pod *api.Pod) {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == api.PodScheduled {
			// The reason and message of an earlier Unschedulable no longer
			// hold once the pod is bound.
			pod.Status.Conditions[i] = api.PodCondition{
				Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: api.Now(),
			}
			return
		}
	}
	pod.Status.Conditions = append(pod.Status.Conditions, api.PodCondition{
		Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: api.Now(),
	})
}
