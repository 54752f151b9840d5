package deployment

import (
	"time"

	"kubeloop/api"
	"kubeloop/controllers/replicaset"
)

// podCounts is what the pod cache says about one ReplicaSet's pods.
type podCounts struct {
	// active pods are neither finished nor being deleted.
	active int32
	// available pods are active and ready for minReadySeconds.
	available int32
	// terminating pods are being deleted and have not finished.
	terminating int32
}

// rolloutView is the state a rollout step decides from: for each
// ReplicaSet the pods the cache shows, beside the ReplicaSet's own spec and
// status.
//
// Kubernetes decides from spec.replicas and status.availableReplicas
// alone. Both trail reality: right after an old ReplicaSet is scaled down
// its pods are still running (the ReplicaSet controller has not deleted
// them yet) and its status still counts them as available. A step taken
// in that window can, for a moment, run more than replicas+maxSurge pods
// or leave fewer than replicas−maxUnavailable available. kubeloop closes
// the window by reading both sources and trusting the cautious one
// (surgeCount, availableCount); the ReplicaSet's status updates wake the
// Deployment again once they agree.
type rolloutView struct {
	pods map[string]podCounts // by ReplicaSet UID
}

// newRolloutView counts the pods of podMap (by ReplicaSet UID) at now.
func newRolloutView(podMap map[string][]*api.Pod, minReadySeconds int32, now time.Time) rolloutView {
	v := rolloutView{pods: make(map[string]podCounts, len(podMap))}
	for uid, pods := range podMap {
		var c podCounts
		for _, p := range pods {
			switch {
			case replicaset.IsPodActive(p):
				c.active++
				if replicaset.IsPodAvailable(p, minReadySeconds, now) {
					c.available++
				}
			case p.DeletionTimestamp != nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed:
				c.terminating++
			}
		}
		v.pods[uid] = c
	}
	return v
}

// surgeCount is how many pods rs may be running: its spec, or more while
// pods it no longer wants have not yet been deleted.
func (v rolloutView) surgeCount(rs *api.ReplicaSet) int32 {
	if rs == nil {
		return 0
	}
	return max(rsReplicas(rs), v.pods[rs.UID].active)
}

// availableCount is how many of rs's pods can be counted on to stay
// available: the fewer of what its status and the pod cache say, less any
// pods about to be deleted (the ReplicaSet controller deletes unavailable
// pods first, but the cautious assumption is that they are available).
func (v rolloutView) availableCount(rs *api.ReplicaSet) int32 {
	if rs == nil {
		return 0
	}
	c := v.pods[rs.UID]
	surplus := max(0, c.active-rsReplicas(rs))
	return max(0, min(rs.Status.AvailableReplicas, c.available)-surplus)
}

// lagging reports whether the pod cache is more cautious than some
// ReplicaSet's own counts: pods it no longer wants still run, or fewer are
// available than its status says. A step held back by that is taken once
// the two agree. In one controller manager the agreement comes as a
// ReplicaSet status update, which wakes the Deployment; a Deployment
// controller with a pod cache of its own (another process) might hear of
// nothing, so rolloutRolling then looks again after viewRecheckDelay.
func (v rolloutView) lagging(rss []*api.ReplicaSet) bool {
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		c := v.pods[rs.UID]
		if c.active > rsReplicas(rs) || c.available < rs.Status.AvailableReplicas {
			return true
		}
	}
	return false
}

// viewRecheckDelay is how long a step held back by the pod cache waits
// before it is looked at again, if no event comes first.
const viewRecheckDelay = time.Second

func (v rolloutView) totalSurge(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		n += v.surgeCount(rs)
	}
	return n
}

func (v rolloutView) totalAvailable(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		n += v.availableCount(rs)
	}
	return n
}

// terminating is the number of pods of rss being deleted, for
// status.terminatingReplicas.
func (v rolloutView) terminating(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += v.pods[rs.UID].terminating
		}
	}
	return n
}
