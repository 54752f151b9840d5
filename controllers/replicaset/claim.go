package replicaset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"kubeloop/api"
	"kubeloop/client"
)

// podControllerRefManager decides, for one ReplicaSet, which pods are its
// own: those it controls and still selects, plus orphans it selects (which
// it adopts). Pods it controls but no longer selects are released. Pods
// controlled by anyone else are never touched.
// Kubernetes: pkg/controller/controller_ref_manager.go,
// PodControllerRefManager and BaseControllerRefManager.ClaimObject.
type podControllerRefManager struct {
	rsc      *Controller
	rs       *api.ReplicaSet
	selector api.Selector

	// canAdopt re-reads the ReplicaSet from the API once, before the first
	// adoption: the cache may not show yet that it is being deleted, and a
	// deleted owner must not collect new dependents.
	canAdoptOnce sync.Once
	canAdoptErr  error
}

// claimPods returns the pods the ReplicaSet owns after adopting and
// releasing as needed. It carries on past individual failures and returns
// them joined, so one stuck pod does not block the others.
func (rsc *Controller) claimPods(ctx context.Context, rs *api.ReplicaSet, selector api.Selector, pods []*api.Pod) ([]*api.Pod, error) {
	m := &podControllerRefManager{rsc: rsc, rs: rs, selector: selector}
	var claimed []*api.Pod
	var errs []error
	for _, pod := range pods {
		ok, err := m.claim(ctx, pod)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			claimed = append(claimed, pod)
		}
	}
	return claimed, errors.Join(errs...)
}

func (m *podControllerRefManager) claim(ctx context.Context, pod *api.Pod) (bool, error) {
	matches := m.selector.Matches(pod.Labels)
	if ref := api.GetControllerOf(&pod.ObjectMeta); ref != nil {
		if ref.UID != m.rs.UID {
			return false, nil
		}
		if matches {
			return true, nil
		}
		if m.rs.DeletionTimestamp != nil {
			// Going away anyway: leave the pod to the garbage collector.
			return false, nil
		}
		err := m.release(ctx, pod)
		if err != nil && !api.IsNotFound(err) && !api.IsInvalid(err) {
			// NotFound: the pod is gone. Invalid: a patch precondition
			// failed, someone else already changed its owners.
			return false, err
		}
		return false, nil
	}
	if m.rs.DeletionTimestamp != nil || !matches || pod.DeletionTimestamp != nil || pod.Namespace != m.rs.Namespace {
		return false, nil
	}
	if err := m.adopt(ctx, pod); err != nil {
		if api.IsNotFound(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// canAdopt is Kubernetes' RecheckDeletionTimestamp: a quorum read of the
// owner, checking it is the same object (UID) and not being deleted.
func (m *podControllerRefManager) canAdopt(ctx context.Context) error {
	m.canAdoptOnce.Do(func() {
		fresh, err := client.For[*api.ReplicaSet](m.rsc.client).Namespace(m.rs.Namespace).Get(ctx, m.rs.Name, client.GetOptions{})
		switch {
		case err != nil:
			m.canAdoptErr = err
		case fresh.UID != m.rs.UID:
			m.canAdoptErr = fmt.Errorf("original ReplicaSet %s/%s is gone: got uid %s, wanted %s", m.rs.Namespace, m.rs.Name, fresh.UID, m.rs.UID)
		case fresh.DeletionTimestamp != nil:
			m.canAdoptErr = fmt.Errorf("%s/%s has just been deleted at %v", m.rs.Namespace, m.rs.Name, fresh.DeletionTimestamp.Time)
		}
	})
	return m.canAdoptErr
}

// jsonPatchOp is one RFC 6902 operation. Value is raw so that a JSON null
// (a "test" that the member is absent) survives omitempty.
type jsonPatchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value,omitempty"`
}

// ownerPatch builds a JSON patch that swaps the pod's ownerReferences from
// what the cache shows to refs, failing (422) if either the pod's UID or its
// ownerReferences changed meanwhile. Kubernetes sends a strategic merge
// patch keyed by owner UID; kubeloop's apiserver speaks only JSON and merge
// patches, so the "test" operations play the part of its preconditions.
func ownerPatch(pod *api.Pod, refs []api.OwnerReference) ([]byte, error) {
	uid, err := json.Marshal(pod.UID)
	if err != nil {
		return nil, err
	}
	// null when absent: "test" accepts null for a missing member.
	current := json.RawMessage("null")
	if len(pod.OwnerReferences) > 0 {
		if current, err = json.Marshal(pod.OwnerReferences); err != nil {
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
	case len(pod.OwnerReferences) > 0:
		ops = append(ops, jsonPatchOp{Op: "remove", Path: "/metadata/ownerReferences"})
	}
	return json.Marshal(ops)
}

// adopt adds a controller reference to this ReplicaSet to an orphan.
func (m *podControllerRefManager) adopt(ctx context.Context, pod *api.Pod) error {
	if err := m.canAdopt(ctx); err != nil {
		return fmt.Errorf("can't adopt Pod %s/%s (%s): %w", pod.Namespace, pod.Name, pod.UID, err)
	}
	refs := append(append([]api.OwnerReference(nil), pod.OwnerReferences...), newControllerRef(m.rs))
	if err := m.patchOwners(ctx, pod, refs); err != nil {
		return err
	}
	m.rsc.log.Info("adopted pod", "key", m.rs.Namespace+"/"+m.rs.Name, "pod", pod.Name)
	return nil
}

// release removes this ReplicaSet's reference from a pod it no longer
// selects, leaving any other owners in place.
func (m *podControllerRefManager) release(ctx context.Context, pod *api.Pod) error {
	var refs []api.OwnerReference
	for _, r := range pod.OwnerReferences {
		if r.UID != m.rs.UID {
			refs = append(refs, r)
		}
	}
	if err := m.patchOwners(ctx, pod, refs); err != nil {
		return err
	}
	m.rsc.log.Info("released pod", "key", m.rs.Namespace+"/"+m.rs.Name, "pod", pod.Name)
	return nil
}

func (m *podControllerRefManager) patchOwners(ctx context.Context, pod *api.Pod, refs []api.OwnerReference) error {
	data, err := ownerPatch(pod, refs)
	if err != nil {
		return err
	}
	_, err = client.For[*api.Pod](m.rsc.client).Namespace(pod.Namespace).Patch(ctx, pod.Name, client.JSONPatchType, data, client.PatchOptions{})
	return err
}

// newControllerRef is the owner reference every pod of rs carries: the
// controller one, blocking the owner's foreground deletion until the pod is
// gone. Kubernetes: metav1.NewControllerRef (which leaves
// blockOwnerDeletion to the caller; the ReplicaSet controller sets it).
func newControllerRef(rs *api.ReplicaSet) api.OwnerReference {
	yes := true
	return api.OwnerReference{
		APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID,
		Controller: &yes, BlockOwnerDeletion: &yes,
	}
}
