package deployment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"kubeloop/api"
	"kubeloop/client"
)

// getReplicaSetsForDeployment returns the ReplicaSets the Deployment owns
// after reconciling controller references: orphans it selects are adopted,
// ReplicaSets it owns but no longer selects are released, and those owned
// by anyone else are left alone. Every ReplicaSet of the namespace is
// looked at, since one we own may no longer match.
// Kubernetes: deployment_controller.go, getReplicaSetsForDeployment, over
// controller_ref_manager.go's ReplicaSetControllerRefManager.ClaimReplicaSets.
func (dc *Controller) getReplicaSetsForDeployment(ctx context.Context, d *api.Deployment) ([]*api.ReplicaSet, error) {
	selector, err := api.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, fmt.Errorf("deployment %s/%s has invalid label selector: %v", d.Namespace, d.Name, err)
	}
	m := &rsControllerRefManager{dc: dc, d: d, selector: selector}
	var claimed []*api.ReplicaSet
	var errs []error
	for _, rs := range dc.rsLister.Namespace(d.Namespace).List(nil) {
		ok, err := m.claim(ctx, rs)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			claimed = append(claimed, rs)
		}
	}
	return claimed, errors.Join(errs...)
}

// ownedReplicaSets is the cached ReplicaSets the Deployment controls,
// without adopting or releasing anything (for event handlers).
func (dc *Controller) ownedReplicaSets(d *api.Deployment) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range dc.rsLister.Namespace(d.Namespace).List(nil) {
		if ref := api.GetControllerOf(&rs.ObjectMeta); ref != nil && ref.UID == d.UID {
			out = append(out, rs)
		}
	}
	return out
}

// getPodMapForDeployment groups the Deployment's pods by the UID of the
// ReplicaSet that controls them: pods the selector matches whose controller
// is one of rsList. Every ReplicaSet has an entry, possibly empty.
// Kubernetes: deployment_controller.go, getPodMapForDeployment.
func (dc *Controller) getPodMapForDeployment(d *api.Deployment, rsList []*api.ReplicaSet) (map[string][]*api.Pod, error) {
	selector, err := api.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, err
	}
	podMap := make(map[string][]*api.Pod, len(rsList))
	for _, rs := range rsList {
		podMap[rs.UID] = nil
	}
	for _, pod := range dc.podLister.Namespace(d.Namespace).List(selector) {
		ref := api.GetControllerOf(&pod.ObjectMeta)
		if ref == nil {
			continue
		}
		if pods, ok := podMap[ref.UID]; ok {
			podMap[ref.UID] = append(pods, pod)
		}
	}
	return podMap, nil
}

// rsControllerRefManager claims ReplicaSets for one Deployment.
// Kubernetes: controller_ref_manager.go, BaseControllerRefManager.ClaimObject.
type rsControllerRefManager struct {
	dc       *Controller
	d        *api.Deployment
	selector api.Selector

	// canAdopt re-reads the Deployment once, before the first adoption:
	// the cache may not show yet that it is being deleted, and a deleted
	// owner must not collect new dependents.
	canAdoptOnce sync.Once
	canAdoptErr  error
}

func (m *rsControllerRefManager) claim(ctx context.Context, rs *api.ReplicaSet) (bool, error) {
	matches := !m.selector.Empty() && m.selector.Matches(rs.Labels)
	if ref := api.GetControllerOf(&rs.ObjectMeta); ref != nil {
		if ref.UID != m.d.UID {
			return false, nil
		}
		if matches {
			return true, nil
		}
		if m.d.DeletionTimestamp != nil {
			// Going away anyway: leave it to the garbage collector.
			return false, nil
		}
		err := m.patchOwners(ctx, rs, ownerRefsWithout(rs.OwnerReferences, m.d.UID))
		if err != nil && !api.IsNotFound(err) && !api.IsInvalid(err) {
			// NotFound: gone. Invalid: a patch precondition failed,
			// someone else changed its owners first.
			return false, err
		}
		if err == nil {
			m.dc.log.Info("released replica set", "key", m.d.Namespace+"/"+m.d.Name, "replicaSet", rs.Name)
		}
		return false, nil
	}
	if m.d.DeletionTimestamp != nil || !matches || rs.DeletionTimestamp != nil {
		return false, nil
	}
	if err := m.canAdopt(ctx); err != nil {
		return false, fmt.Errorf("can't adopt ReplicaSet %s/%s (%s): %w", rs.Namespace, rs.Name, rs.UID, err)
	}
	refs := append(append([]api.OwnerReference(nil), rs.OwnerReferences...), newControllerRef(m.d))
	if err := m.patchOwners(ctx, rs, refs); err != nil {
		if api.IsNotFound(err) {
			return false, nil
		}
		return false, err
	}
	m.dc.log.Info("adopted replica set", "key", m.d.Namespace+"/"+m.d.Name, "replicaSet", rs.Name)
	return true, nil
}

// canAdopt is Kubernetes' RecheckDeletionTimestamp: a quorum read of the
// owner, checking it is the same object (UID) and not being deleted.
func (m *rsControllerRefManager) canAdopt(ctx context.Context) error {
	m.canAdoptOnce.Do(func() {
		fresh, err := client.For[*api.Deployment](m.dc.client).Namespace(m.d.Namespace).Get(ctx, m.d.Name, client.GetOptions{})
		switch {
		case err != nil:
			m.canAdoptErr = err
		case fresh.UID != m.d.UID:
			m.canAdoptErr = fmt.Errorf("original Deployment %s/%s is gone: got uid %s, wanted %s", m.d.Namespace, m.d.Name, fresh.UID, m.d.UID)
		case fresh.DeletionTimestamp != nil:
			m.canAdoptErr = fmt.Errorf("%s/%s has just been deleted at %v", m.d.Namespace, m.d.Name, fresh.DeletionTimestamp.Time)
		}
	})
	return m.canAdoptErr
}

// patchOwners swaps the ReplicaSet's ownerReferences from what the cache
// shows to refs with a JSON patch whose "test" operations (the UID and the
// current references) fail with 422 if the ReplicaSet changed meanwhile.
// Kubernetes sends a strategic merge patch with a UID precondition; see
// the ReplicaSet controller's claim.go for why kubeloop uses this form.
func (m *rsControllerRefManager) patchOwners(ctx context.Context, rs *api.ReplicaSet, refs []api.OwnerReference) error {
	data, err := ownerPatch(&rs.ObjectMeta, refs)
	if err != nil {
		return err
	}
	_, err = client.For[*api.ReplicaSet](m.dc.client).Namespace(rs.Namespace).Patch(ctx, rs.Name, client.JSONPatchType, data, client.PatchOptions{})
	return err
}

type jsonPatchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value,omitempty"`
}

// ownerPatch is the JSON patch from meta's ownerReferences to refs.
func ownerPatch(meta *api.ObjectMeta, refs []api.OwnerReference) ([]byte, error) {
	uid, err := json.Marshal(meta.UID)
	if err != nil {
		return nil, err
	}
	// null when absent: "test" accepts null for a missing member.
	current := json.RawMessage("null")
	if len(meta.OwnerReferences) > 0 {
		if current, err = json.Marshal(meta.OwnerReferences); err != nil {
			return nil, err
		}
	}
	ops := []jsonPatchOp{
		{Op: "test", Path: "/metadata/uid", Value: uid},
		{Op: "test", Path: "/metadata/ownerReferences", Value: current},
	}
	switch {
	case len(refs) > 0:
		want, err := json.Marshal(refs)
		if err != nil {
			return nil, err
		}
		ops = append(ops, jsonPatchOp{Op: "add", Path: "/metadata/ownerReferences", Value: want})
	case len(meta.OwnerReferences) > 0:
		ops = append(ops, jsonPatchOp{Op: "remove", Path: "/metadata/ownerReferences"})
	}
	return json.Marshal(ops)
}

func ownerRefsWithout(refs []api.OwnerReference, uid string) []api.OwnerReference {
	var out []api.OwnerReference
	for _, r := range refs {
		if r.UID != uid {
			out = append(out, r)
		}
	}
	return out
}

// newControllerRef is the owner reference every ReplicaSet of d carries.
// Kubernetes: metav1.NewControllerRef (blockOwnerDeletion and controller
// true).
func newControllerRef(d *api.Deployment) api.OwnerReference {
	yes := true
	return api.OwnerReference{
		APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID,
		Controller: &yes, BlockOwnerDeletion: &yes,
	}
}

// hasStatusCause reports whether err is an API error carrying cause.
func hasStatusCause(err error, cause api.CauseType) bool {
	var se *api.StatusError
	if !errors.As(err, &se) || se.ErrStatus.Details == nil {
		return false
	}
	for _, c := range se.ErrStatus.Details.Causes {
		if c.Type == cause {
			return true
		}
	}
	return false
}
