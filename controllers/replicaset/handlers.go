package replicaset

import (
	"reflect"
	"time"

	"kubeloop/api"
	"kubeloop/informer"
)

// The handlers only decide which ReplicaSet keys to enqueue (and feed the
// expectations); every decision about pods is taken by syncReplicaSet from
// the cache, so a missed or duplicated event costs a sync, never a wrong
// action.

func (rsc *Controller) addRS(obj any) {
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return
	}
	rsc.log.Debug("enqueue", "key", rs.Namespace+"/"+rs.Name, "why", "replicaset added")
	rsc.enqueue(rs)
}

// updateRS enqueues on every update, even status-only ones: a resync then
// retries a ReplicaSet whose last creations failed.
func (rsc *Controller) updateRS(oldObj, newObj any) {
	oldRS, ok1 := oldObj.(*api.ReplicaSet)
	curRS, ok2 := newObj.(*api.ReplicaSet)
	if !ok1 || !ok2 {
		return
	}
	if oldRS.UID != curRS.UID {
		// Deleted and re-created under the same name between two events:
		// the old one's expectations must not hold back the new one.
		key, _ := api.MetaNamespaceKeyFunc(oldRS)
		rsc.deleteRS(informer.DeletedFinalStateUnknown{Key: key, Obj: oldRS})
	}
	rsc.enqueue(curRS)
}

func (rsc *Controller) deleteRS(obj any) {
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
	key, _ := api.MetaNamespaceKeyFunc(rs)
	rsc.expectations.DeleteExpectations(key)
	rsc.queue.Add(key)
}

// addPod observes one of our creations, or wakes every ReplicaSet that might
// adopt an orphan.
func (rsc *Controller) addPod(obj any) {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	if pod.DeletionTimestamp != nil {
		// Seen for the first time already going away (e.g. after a
		// restart): that is a deletion, not a creation.
		rsc.deletePod(pod)
		return
	}
	if ref := api.GetControllerOf(&pod.ObjectMeta); ref != nil {
		rs := rsc.resolveControllerRef(pod.Namespace, ref)
		if rs == nil {
			return
		}
		key, _ := api.MetaNamespaceKeyFunc(rs)
		rsc.expectations.CreationObserved(key)
		rsc.queue.Add(key)
		return
	}
	// An orphan: no controller waits for it, so no expectation is lowered.
	for _, rs := range rsc.getPodReplicaSets(pod) {
		rsc.enqueue(rs)
	}
}

// updatePod wakes the old and the new owner when labels or the controller
// reference change, and schedules the availability check of a pod that just
// became ready.
func (rsc *Controller) updatePod(oldObj, newObj any) {
	oldPod, ok1 := oldObj.(*api.Pod)
	curPod, ok2 := newObj.(*api.Pod)
	if !ok1 || !ok2 || curPod.ResourceVersion == oldPod.ResourceVersion {
		// Same version: a periodic resync, nothing changed.
		return
	}
	rsc.traceRunningObserved(oldPod, curPod)
	labelChanged := !reflect.DeepEqual(curPod.Labels, oldPod.Labels)
	if curPod.DeletionTimestamp != nil {
		// A graceful deletion has begun: count it now rather than when the
		// kubelet finally removes the pod, so replacements start at once.
		rsc.deletePod(curPod)
		if labelChanged {
			rsc.deletePod(oldPod)
		}
		return
	}

	curRef := api.GetControllerOf(&curPod.ObjectMeta)
	oldRef := api.GetControllerOf(&oldPod.ObjectMeta)
	refChanged := !reflect.DeepEqual(curRef, oldRef)
	if refChanged && oldRef != nil {
		if rs := rsc.resolveControllerRef(oldPod.Namespace, oldRef); rs != nil {
			rsc.enqueue(rs)
		}
	}
	if curRef != nil {
		rs := rsc.resolveControllerRef(curPod.Namespace, curRef)
		if rs == nil {
			return
		}
		rsc.enqueue(rs)
		if !IsPodReady(oldPod) && IsPodReady(curPod) && rs.Spec.MinReadySeconds > 0 {
			// Nothing else will happen when the pod crosses minReadySeconds,
			// so look again then (plus a second against clock skew, as
			// Kubernetes does).
			rsc.enqueueAfter(rs, time.Duration(rs.Spec.MinReadySeconds)*time.Second+time.Second)
		}
		return
	}
	if labelChanged || refChanged {
		for _, rs := range rsc.getPodReplicaSets(curPod) {
			rsc.enqueue(rs)
		}
	}
}

// deletePod observes one of our deletions. obj may be a tombstone whose pod
// is stale; that is fine, only its key and owner are used.
func (rsc *Controller) deletePod(obj any) {
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
	ref := api.GetControllerOf(&pod.ObjectMeta)
	if ref == nil {
		return
	}
	rs := rsc.resolveControllerRef(pod.Namespace, ref)
	if rs == nil {
		return
	}
	key, _ := api.MetaNamespaceKeyFunc(rs)
	rsc.expectations.DeletionObserved(key, PodKey(pod))
	rsc.queue.Add(key)
}

// resolveControllerRef returns the cached ReplicaSet a controller reference
// points to, or nil if it is another kind, gone, or a namesake with another
// UID.
func (rsc *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.ReplicaSet {
	if ref.Kind != "ReplicaSet" {
		return nil
	}
	rs, err := rsc.rsLister.Namespace(namespace).Get(ref.Name)
	if err != nil || rs.UID != ref.UID {
		return nil
	}
	return rs
}

// getPodReplicaSets returns the cached ReplicaSets whose selector matches
// the pod. More than one is a user error that controller references make
// harmless: only one can adopt.
func (rsc *Controller) getPodReplicaSets(pod *api.Pod) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range rsc.rsLister.Namespace(pod.Namespace).List(nil) {
		sel, err := api.LabelSelectorAsSelector(rs.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(pod.Labels) {
			continue
		}
		out = append(out, rs)
	}
	if len(out) > 1 {
		rsc.log.Warn("more than one replicaset selects a pod", "pod", PodKey(pod), "count", len(out))
	}
	return out
}
