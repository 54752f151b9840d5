package deployment

import (
	"reflect"

	"kubeloop/api"
	"kubeloop/informer"
)

// The handlers only decide which Deployment keys to enqueue; every decision
// is taken by syncDeployment from the caches, so a missed or duplicated
// event costs a sync, never a wrong action.
// Kubernetes: deployment_controller.go, addDeployment ... deletePod.

func (dc *Controller) addDeployment(obj any) {
	if d, ok := obj.(*api.Deployment); ok {
		dc.log.Debug("enqueue", "key", d.Namespace+"/"+d.Name, "why", "deployment added")
		dc.enqueue(d)
	}
}

func (dc *Controller) updateDeployment(_, newObj any) {
	if d, ok := newObj.(*api.Deployment); ok {
		dc.enqueue(d)
	}
}

func (dc *Controller) deleteDeployment(obj any) {
	d, ok := obj.(*api.Deployment)
	if !ok {
		tomb, isTomb := obj.(informer.DeletedFinalStateUnknown)
		if !isTomb {
			return
		}
		if d, ok = tomb.Obj.(*api.Deployment); !ok {
			return
		}
	}
	dc.enqueue(d)
}

// addReplicaSet wakes the ReplicaSet's owner, or every Deployment that
// might adopt an orphan.
func (dc *Controller) addReplicaSet(obj any) {
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return
	}
	if rs.DeletionTimestamp != nil {
		// Seen for the first time already going away (after a restart).
		dc.deleteReplicaSet(rs)
		return
	}
	if ref := api.GetControllerOf(&rs.ObjectMeta); ref != nil {
		if d := dc.resolveControllerRef(rs.Namespace, ref); d != nil {
			dc.enqueue(d)
		}
		return
	}
	for _, d := range dc.getDeploymentsForReplicaSet(rs) {
		dc.enqueue(d)
	}
}

// updateReplicaSet wakes the old and the new owner when the controller
// reference changes, and the Deployments that might adopt a relabeled
// orphan.
func (dc *Controller) updateReplicaSet(oldObj, newObj any) {
	oldRS, ok1 := oldObj.(*api.ReplicaSet)
	curRS, ok2 := newObj.(*api.ReplicaSet)
	if !ok1 || !ok2 || curRS.ResourceVersion == oldRS.ResourceVersion {
		// A periodic resync: nothing changed.
		return
	}
	curRef := api.GetControllerOf(&curRS.ObjectMeta)
	oldRef := api.GetControllerOf(&oldRS.ObjectMeta)
	refChanged := !reflect.DeepEqual(curRef, oldRef)
	if refChanged && oldRef != nil {
		if d := dc.resolveControllerRef(oldRS.Namespace, oldRef); d != nil {
			dc.enqueue(d)
		}
	}
	if curRef != nil {
		if d := dc.resolveControllerRef(curRS.Namespace, curRef); d != nil {
			dc.enqueue(d)
		}
		return
	}
	if refChanged || !reflect.DeepEqual(curRS.Labels, oldRS.Labels) {
		for _, d := range dc.getDeploymentsForReplicaSet(curRS) {
			dc.enqueue(d)
		}
	}
}

// deleteReplicaSet wakes the owner. obj may be a tombstone.
func (dc *Controller) deleteReplicaSet(obj any) {
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		tomb, isTomb := obj.(informer.DeletedFinalStateUnknown)
		if !isTomb {
			return
		}
		if rs, ok = tomb.Obj.(*api.ReplicaSet); !ok {
			return
		}
	}
	ref := api.GetControllerOf(&rs.ObjectMeta)
	if ref == nil {
		// An orphan going away concerns nobody.
		return
	}
	if d := dc.resolveControllerRef(rs.Namespace, ref); d != nil {
		dc.enqueue(d)
	}
}

// deletePod wakes a Recreate Deployment once the last of its pods is gone:
// that is the moment it may create the new ones.
func (dc *Controller) deletePod(obj any) {
	pod, ok := obj.(*api.Pod)
	if !ok {
		tomb, isTomb := obj.(informer.DeletedFinalStateUnknown)
		if !isTomb {
			return
		}
		if pod, ok = tomb.Obj.(*api.Pod); !ok {
			return
		}
	}
	d := dc.getDeploymentForPod(pod)
	if d == nil || d.Spec.Strategy.Type != RecreateDeploymentStrategyType {
		return
	}
	rsList := dc.ownedReplicaSets(d)
	podMap, err := dc.getPodMapForDeployment(d, rsList)
	if err != nil {
		return
	}
	n := 0
	for _, pods := range podMap {
		n += len(pods)
	}
	if n == 0 {
		dc.enqueue(d)
	}
}

// getDeploymentForPod follows the pod's controller reference to its
// ReplicaSet and that one's to its Deployment.
func (dc *Controller) getDeploymentForPod(pod *api.Pod) *api.Deployment {
	ref := api.GetControllerOf(&pod.ObjectMeta)
	if ref == nil || ref.Kind != "ReplicaSet" {
		return nil
	}
	rs, err := dc.rsLister.Namespace(pod.Namespace).Get(ref.Name)
	if err != nil || rs.UID != ref.UID {
		return nil
	}
	rsRef := api.GetControllerOf(&rs.ObjectMeta)
	if rsRef == nil {
		return nil
	}
	return dc.resolveControllerRef(rs.Namespace, rsRef)
}

// resolveControllerRef returns the cached Deployment a controller reference
// points to, or nil if it is another kind, gone, or a namesake with another
// UID.
func (dc *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.Deployment {
	if ref.Kind != "Deployment" {
		return nil
	}
	d, err := dc.dLister.Namespace(namespace).Get(ref.Name)
	if err != nil || d.UID != ref.UID {
		return nil
	}
	return d
}

// getDeploymentsForReplicaSet returns the cached Deployments whose selector
// matches the ReplicaSet's labels. More than one is a user error that
// controller references make harmless: only one can adopt.
// Kubernetes: util.GetDeploymentsForReplicaSet.
func (dc *Controller) getDeploymentsForReplicaSet(rs *api.ReplicaSet) []*api.Deployment {
	if len(rs.Labels) == 0 {
		return nil
	}
	var out []*api.Deployment
	for _, d := range dc.dLister.Namespace(rs.Namespace).List(nil) {
		sel, err := api.LabelSelectorAsSelector(d.Spec.Selector)
		// An empty selector would match everything: never adopt with it.
		if err != nil || sel.Empty() || !sel.Matches(rs.Labels) {
			continue
		}
		out = append(out, d)
	}
	if len(out) > 1 {
		dc.log.Warn("more than one deployment selects a replica set", "replicaSet", rs.Namespace+"/"+rs.Name, "count", len(out))
	}
	return out
}
