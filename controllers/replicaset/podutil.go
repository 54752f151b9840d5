package replicaset

import (
	"time"

	"kubeloop/api"
)

// IsPodActive is false for pods that are done (Succeeded, Failed) or going
// away (deletionTimestamp set): they no longer count towards replicas.
// Kubernetes: pkg/controller/controller_utils.go, IsPodActive.
func IsPodActive(p *api.Pod) bool {
	return p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed && p.DeletionTimestamp == nil
}

// FilterActivePods keeps the active pods.
func FilterActivePods(pods []*api.Pod) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods {
		if IsPodActive(p) {
			out = append(out, p)
		}
	}
	return out
}

// podReadyCondition returns the pod's Ready condition, or nil.
func podReadyCondition(p *api.Pod) *api.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == api.PodReady {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// IsPodReady is true when the pod's Ready condition is True.
// Kubernetes: pkg/api/v1/pod/util.go, IsPodReady.
func IsPodReady(p *api.Pod) bool {
	c := podReadyCondition(p)
	return c != nil && c.Status == api.ConditionTrue
}

// IsPodAvailable is true when the pod has been ready for at least
// minReadySeconds at now. Kubernetes: pkg/api/v1/pod/util.go, IsPodAvailable.
func IsPodAvailable(p *api.Pod, minReadySeconds int32, now time.Time) bool {
	if !IsPodReady(p) {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	c := podReadyCondition(p)
	since := c.LastTransitionTime.Time
	return !since.IsZero() && since.Add(time.Duration(minReadySeconds)*time.Second).Before(now)
}

// podReadyTime is when the pod last became ready, zero if it is not ready.
func podReadyTime(p *api.Pod) time.Time {
	if !IsPodReady(p) {
		return time.Time{}
	}
	return podReadyCondition(p).LastTransitionTime.Time
}

// PodKey is the expectations key of a pod, "namespace/name".
func PodKey(p *api.Pod) string { return p.Namespace + "/" + p.Name }
