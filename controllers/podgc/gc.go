package podgc

import (
	"context"
	"sort"

	"kubeloop/api"
	"kubeloop/client"
)

// taintNodeOutOfService is the taint an operator puts on a node that is
// shut down for good, so its pods may be force-deleted. Kubernetes:
// v1.TaintNodeOutOfService.
const taintNodeOutOfService = "node.kubernetes.io/out-of-service"

func isPodTerminated(p *api.Pod) bool {
	return p.Status.Phase != api.PodPending && p.Status.Phase != api.PodRunning && p.Status.Phase != api.PodUnknown
}

// gcTerminated deletes the oldest terminated pods (evicted ones first)
// beyond the threshold: Jobs and bare pods that ran to completion would
// otherwise pile up for ever. Kubernetes: gcTerminated.
func (c *Controller) gcTerminated(ctx context.Context, pods []*api.Pod) {
	var terminated []*api.Pod
	for _, p := range pods {
		if isPodTerminated(p) {
			terminated = append(terminated, p)
		}
	}
	deleteCount := len(terminated) - c.terminatedPodThreshold
	if deleteCount <= 0 {
		return
	}
	c.log.Info("garbage collecting terminated pods", "count", deleteCount, "threshold", c.terminatedPodThreshold)
	sortByEvictionAndCreationTimestamp(terminated)
	for _, p := range terminated[:deleteCount] {
		c.markFailedAndDelete(ctx, p, nil)
	}
}

// gcTerminating force-deletes terminating pods on nodes that are not
// Ready and carry the out-of-service taint: their kubelet will never
// confirm the deletion. Kubernetes: gcTerminating.
func (c *Controller) gcTerminating(ctx context.Context, pods []*api.Pod) {
	var terminating []*api.Pod
	for _, p := range pods {
		if p.DeletionTimestamp == nil || p.Spec.NodeName == "" {
			continue
		}
		node, err := c.nodeLister.Get(p.Spec.NodeName)
		if err != nil {
			continue
		}
		if !nodeReady(node) && hasTaintKey(node, taintNodeOutOfService) {
			terminating = append(terminating, p)
		}
	}
	if len(terminating) == 0 {
		return
	}
	c.log.Info("garbage collecting pods terminating on out-of-service nodes", "count", len(terminating))
	sortByEvictionAndCreationTimestamp(terminating)
	for _, p := range terminating {
		c.markFailedAndDelete(ctx, p, nil)
	}
}

// gcOrphaned deletes pods bound to nodes that no longer exist. A node the
// cache does not know is first quarantined for QuarantineTime, then
// checked with a live GET, so a node that just registered (or a cache
// that lags) costs no pod. Kubernetes: gcOrphaned, discoverDeletedNodes.
func (c *Controller) gcOrphaned(ctx context.Context, pods []*api.Pod, nodes []*api.Node) {
	existing := map[string]bool{}
	for _, n := range nodes {
		existing[n.Name] = true
	}
	for _, p := range pods {
		if p.Spec.NodeName != "" && !existing[p.Spec.NodeName] {
			c.nodeQueue.AddAfter(p.Spec.NodeName, c.quarantineTime)
		}
	}
	deleted, quit := c.discoverDeletedNodes(ctx, existing)
	if quit {
		return
	}
	for _, p := range pods {
		if !deleted[p.Spec.NodeName] {
			continue
		}
		c.log.Info("found orphaned pod assigned to a deleted node", "pod", p.Namespace+"/"+p.Name, "node", p.Spec.NodeName)
		c.markFailedAndDelete(ctx, p, &api.PodCondition{
			Type: api.DisruptionTarget, Status: api.ConditionTrue,
			Reason: "DeletionByPodGC", Message: "PodGC: node no longer exists",
		})
	}
}

// discoverDeletedNodes takes every node whose quarantine is over off the
// queue and keeps those a live GET does not find.
func (c *Controller) discoverDeletedNodes(ctx context.Context, existing map[string]bool) (map[string]bool, bool) {
	deleted := map[string]bool{}
	for c.nodeQueue.Len() > 0 {
		name, quit := c.nodeQueue.Get()
		if quit {
			return nil, true
		}
		if !existing[name] {
			_, err := c.nodes.Get(ctx, name, client.GetOptions{})
			switch {
			case api.IsNotFound(err):
				deleted[name] = true
			case err != nil:
				// Quarantined again on the next sweep if still needed.
				c.log.Error("get node", "node", name, "err", err)
			}
		}
		c.nodeQueue.Done(name)
	}
	return deleted, false
}

// gcUnscheduledTerminating deletes terminating pods that were never bound:
// no kubelet will ever confirm their deletion. Kubernetes:
// gcUnscheduledTerminating.
func (c *Controller) gcUnscheduledTerminating(ctx context.Context, pods []*api.Pod) {
	for _, p := range pods {
		if p.DeletionTimestamp == nil || p.Spec.NodeName != "" {
			continue
		}
		c.log.Info("found unscheduled terminating pod", "pod", p.Namespace+"/"+p.Name)
		c.markFailedAndDelete(ctx, p, nil)
	}
}

// markFailedAndDelete moves a pod that is not terminal to phase Failed
// (with condition, if given) — on a lost node nothing else would — and
// then force-deletes it (grace period 0), guarded by its uid. Kubernetes:
// markFailedAndDeletePodWithCondition.
//
// Kubernetes writes the status with a strategic merge patch that carries
// the pod's uid, which its apiserver refuses for another pod of the same
// name (uid is immutable). Our apiserver keeps the stored uid instead of
// refusing a changed one, so the status goes through UpdateStatus on the
// cached copy, a compare-and-swap on its resourceVersion: a pod changed
// since the cache saw it is left for the next sweep.
func (c *Controller) markFailedAndDelete(ctx context.Context, pod *api.Pod, condition *api.PodCondition) {
	key := pod.Namespace + "/" + pod.Name
	c.log.Info("force deleting pod", "pod", key)
	pods := c.pods.Namespace(pod.Namespace)
	if pod.Status.Phase != api.PodSucceeded && pod.Status.Phase != api.PodFailed {
		failed := pod.DeepCopy()
		failed.Status.Phase = api.PodFailed
		if condition != nil {
			updatePodCondition(&failed.Status, *condition)
		}
		if _, err := pods.UpdateStatus(ctx, failed, client.UpdateOptions{}); err != nil {
			switch {
			case api.IsNotFound(err):
			case api.IsConflict(err):
				c.log.Info("pod changed; next sweep", "pod", key)
			default:
				c.log.Error("mark pod failed", "pod", key, "err", err)
			}
			return
		}
	}
	zero := int64(0)
	uid := pod.UID
	err := pods.Delete(ctx, pod.Name, api.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: &api.Preconditions{UID: &uid}})
	if err != nil && !api.IsNotFound(err) {
		c.log.Error("delete pod", "pod", key, "err", err)
	}
}

// updatePodCondition sets cond in status, replacing the condition of its
// type; the transition time moves only if the status does. Kubernetes:
// pkg/api/v1/pod UpdatePodCondition.
func updatePodCondition(status *api.PodStatus, cond api.PodCondition) {
	cond.LastTransitionTime = api.Now()
	for i := range status.Conditions {
		if status.Conditions[i].Type != cond.Type {
			continue
		}
		if status.Conditions[i].Status == cond.Status {
			cond.LastTransitionTime = status.Conditions[i].LastTransitionTime
		}
		status.Conditions[i] = cond
		return
	}
	status.Conditions = append(status.Conditions, cond)
}

// sortByEvictionAndCreationTimestamp puts evicted pods first (they are
// the least likely to be wanted), then the oldest, with the name as the
// tie-break. Kubernetes: byEvictionAndCreationTimestamp.
func sortByEvictionAndCreationTimestamp(pods []*api.Pod) {
	evicted := func(p *api.Pod) bool { return p.Status.Phase == api.PodFailed && p.Status.Reason == "Evicted" }
	sort.Slice(pods, func(i, j int) bool {
		if ei, ej := evicted(pods[i]), evicted(pods[j]); ei != ej {
			return ei
		}
		ti, tj := pods[i].CreationTimestamp.Time, pods[j].CreationTimestamp.Time
		if ti.Equal(tj) {
			return pods[i].Name < pods[j].Name
		}
		return ti.Before(tj)
	})
}

func nodeReady(n *api.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == api.NodeReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

func hasTaintKey(n *api.Node, key string) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == key {
			return true
		}
	}
	return false
}
