package nodelifecycle

import (
	"context"
	"fmt"
	"time"

	"kubeloop/api"
)

// evictPods deletes the pods of an unreachable node whose time is up:
// PodEvictionTimeout after the taint was added, or the tolerationSeconds of
// the pod's own toleration of it (a toleration without seconds keeps the
// pod forever). It returns how long until the next pod is due, or 0.
// Kubernetes: pkg/controller/tainteviction/taint_eviction.go
// (processPodOnNode, getMinTolerationTime), with our default standing in
// for the DefaultTolerationSeconds admission plugin's 300 s.
func (nc *Controller) evictPods(ctx context.Context, nodeName string, since, now time.Time) (time.Duration, error) {
	var next time.Duration
	for _, pod := range nc.podLister.List(api.Everything()) {
		if pod.Spec.NodeName != nodeName || pod.DeletionTimestamp != nil {
			continue
		}
		timeout, evict := nc.evictionTimeout(pod)
		if !evict {
			continue
		}
		if wait := since.Add(timeout).Sub(now); wait > 0 {
			if next == 0 || wait < next {
				next = wait
			}
			continue
		}
		uid := pod.UID
		err := nc.pods.Namespace(pod.Namespace).Delete(ctx, pod.Name, api.DeleteOptions{Preconditions: &api.Preconditions{UID: &uid}})
		if err != nil && !api.IsNotFound(err) && !api.IsConflict(err) {
			return 0, fmt.Errorf("evict pod %s/%s: %w", pod.Namespace, pod.Name, err)
		}
		nc.recorder.Eventf(pod, api.EventTypeNormal, EventTaintManagerEviction, "Marking for deletion Pod %s/%s", pod.Namespace, pod.Name)
		nc.log.Info("pod evicted", "node", nodeName, "pod", pod.Namespace+"/"+pod.Name)
	}
	return next, nil
}

// evictionTimeout is how long pod may stay on an unreachable node, and
// whether it must go at all.
func (nc *Controller) evictionTimeout(pod *api.Pod) (time.Duration, bool) {
	for _, t := range pod.Spec.Tolerations {
		if !toleratesUnreachable(t) {
			continue
		}
		if t.TolerationSeconds == nil {
			return 0, false
		}
		return time.Duration(max(*t.TolerationSeconds, 0)) * time.Second, true
	}
	return nc.opts.PodEvictionTimeout, true
}

// toleratesUnreachable: the toleration matches node.kubernetes.io/unreachable:NoExecute.
func toleratesUnreachable(t api.Toleration) bool {
	if t.Effect != "" && t.Effect != api.TaintEffectNoExecute {
		return false
	}
	if t.Key == "" {
		return t.Operator == api.TolerationOpExists
	}
	if t.Key != api.TaintNodeUnreachable {
		return false
	}
	return t.Operator == api.TolerationOpExists || t.Value == ""
}
