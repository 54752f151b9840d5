package customresourcedefinition

import (
	"context"
	"slices"

	"kubeloop/api"
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/store"
)

// NewStorage is the REST storage of customresourcedefinitions and their
// status. Kubernetes: pkg/registry/customresourcedefinition/etcd.go (NewREST).
func NewStorage(o generic.Options) map[string]rest.Storage {
	s := &REST{Store: generic.NewStore(o, NewStrategy(o.Info))}
	status := *s.Store
	status.UpdateStrategy = StatusStrategy{generic.StatusStrategy{Info: o.Info}}
	return map[string]rest.Storage{"": s, "status": generic.NewStatusRESTFromStore(&status)}
}

// REST is the CRD store with Kubernetes' delete: the first delete of a CRD
// adds the cleanup finalizer and the Terminating condition, so the CRD
// stays (Terminating, still served) until its custom resources are gone.
type REST struct {
	*generic.Store
}

// Delete marks the CRD for cleanup, then deletes it as any object with a
// finalizer: it gets a deletionTimestamp and waits. Kubernetes: REST.Delete.
func (r *REST) Delete(ctx context.Context, name string, deleteValidation rest.ValidateObjectFunc, opts *api.DeleteOptions) (api.Object, error) {
	if !rest.IsDryRun(opts.DryRun) {
		_, err := r.Storage.GuaranteedUpdate(ctx, r.KeyFunc(ctx, name), preconditions(opts), func(cur api.Object) (api.Object, error) {
			crd := cur.(*api.CustomResourceDefinition)
			if crd.DeletionTimestamp != nil {
				return nil, errUnchanged
			}
			if !slices.Contains(crd.Finalizers, CleanupFinalizer) {
				crd.Finalizers = append(crd.Finalizers, CleanupFinalizer)
			}
			SetCondition(crd, api.CRDTerminating, api.ConditionTrue, "InstanceDeletionPending",
				"CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon")
			return crd, nil
		}, false)
		if err != nil && err != errUnchanged {
			return nil, err
		}
	}
	return r.Store.Delete(ctx, name, deleteValidation, opts)
}

// errUnchanged ends the read-modify-write of a CRD already being deleted.
var errUnchanged = &api.StatusError{ErrStatus: api.Status{Message: "unchanged"}}

func preconditions(opts *api.DeleteOptions) *store.Preconditions {
	if opts.Preconditions == nil {
		return nil
	}
	return &store.Preconditions{UID: opts.Preconditions.UID, ResourceVersion: opts.Preconditions.ResourceVersion}
}

// IsEstablished reports whether the CRD's Established condition is True.
func IsEstablished(crd *api.CustomResourceDefinition) bool {
	return ConditionTrue(crd, api.CRDEstablished)
}

// ConditionTrue reports whether the CRD's condition t is True.
func ConditionTrue(crd *api.CustomResourceDefinition, t api.CustomResourceDefinitionConditionType) bool {
	for _, c := range crd.Status.Conditions {
		if c.Type == t {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

// SetCondition sets condition t, moving its lastTransitionTime only when
// its status changes, as Kubernetes' apihelpers.SetCRDCondition does. It
// reports whether anything changed.
func SetCondition(crd *api.CustomResourceDefinition, t api.CustomResourceDefinitionConditionType, status api.ConditionStatus, reason, message string) bool {
	for i := range crd.Status.Conditions {
		c := &crd.Status.Conditions[i]
		if c.Type != t {
			continue
		}
		if c.Status == status && c.Reason == reason && c.Message == message {
			return false
		}
		if c.Status != status {
			c.LastTransitionTime = api.Now()
		}
		c.Status, c.Reason, c.Message = status, reason, message
		return true
	}
	crd.Status.Conditions = append(crd.Status.Conditions, api.CustomResourceDefinitionCondition{
		Type: t, Status: status, Reason: reason, Message: message, LastTransitionTime: api.Now()})
	return true
}
