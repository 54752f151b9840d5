package nodelifecycle

import (
	"context"
	"fmt"
	"time"

	"kubeloop/api"
	"kubeloop/client"
)

// Reasons and messages Kubernetes uses for a node that went silent.
const (
	ReasonNodeStatusUnknown      = "NodeStatusUnknown"
	MessageNodeStatusUnknown     = "Kubelet stopped posting node status."
	ReasonNodeStatusNeverUpdated = "NodeStatusNeverUpdated"
	MessageNodeNeverUpdated      = "Kubelet never posted node status."
	// EventNodeNotReady is recorded on the node when it is marked Unknown.
	EventNodeNotReady = "NodeNotReady"
	// EventTaintManagerEviction is recorded on each evicted pod.
	EventTaintManagerEviction = "TaintManagerEviction"
)

// conditionsToMark are the node conditions that become Unknown when the
// kubelet goes silent (Kubernetes: the condition types tryUpdateNodeHealth
// walks).
func conditionsToMark() []api.NodeConditionType {
	return []api.NodeConditionType{api.NodeReady, api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure}
}

// syncNode is the reconcile for one node: a node silent for longer than the
// grace period is marked Unknown, tainted unreachable and, after the
// eviction timeout, emptied; a node that speaks again (Ready=True) loses the
// taint. Kubernetes: monitorNodeHealth, tryUpdateNodeHealth,
// processTaintBaseEviction and the taint eviction controller.
func (nc *Controller) syncNode(ctx context.Context, name string) error {
	node, err := nc.nodeLister.Get(name)
	if api.IsNotFound(err) {
		nc.forget(name)
		return nil
	}
	if err != nil {
		return err
	}
	lease, err := nc.leaseLister.Namespace(api.NamespaceNodeLease).Get(name)
	if err != nil && !api.IsNotFound(err) {
		return err
	}
	now := nc.clock.Now()
	h := nc.observe(node, lease, now)
	if now.Sub(h.probeTimestamp) <= nc.opts.NodeMonitorGracePeriod {
		if ready := readyCondition(node); ready != nil && ready.Status == api.ConditionTrue && unreachableTaint(node) != nil {
			return nc.removeUnreachableTaint(ctx, name)
		}
		return nil
	}
	if err := nc.markUnknown(ctx, node, now); err != nil {
		return err
	}
	since, err := nc.ensureUnreachableTaint(ctx, name, now)
	if err != nil {
		return err
	}
	wait, err := nc.evictPods(ctx, name, since, now)
	if err != nil {
		return err
	}
	if wait > 0 {
		nc.queue.AddAfter(name, wait)
	}
	return nil
}

// markUnknown sets the node's conditions to Unknown, keeping their last
// heartbeat, unless they already are.
func (nc *Controller) markUnknown(ctx context.Context, node *api.Node, now time.Time) error {
	next := node.DeepCopy()
	changed := false
	for _, t := range conditionsToMark() {
		var cond *api.NodeCondition
		for i := range next.Status.Conditions {
			if next.Status.Conditions[i].Type == t {
				cond = &next.Status.Conditions[i]
			}
		}
		switch {
		case cond == nil:
			next.Status.Conditions = append(next.Status.Conditions, api.NodeCondition{
				Type: t, Status: api.ConditionUnknown, Reason: ReasonNodeStatusNeverUpdated, Message: MessageNodeNeverUpdated,
				LastHeartbeatTime: node.CreationTimestamp, LastTransitionTime: api.NewTime(now),
			})
			changed = true
		case cond.Status != api.ConditionUnknown:
			cond.Status, cond.Reason, cond.Message = api.ConditionUnknown, ReasonNodeStatusUnknown, MessageNodeStatusUnknown
			cond.LastTransitionTime = api.NewTime(now)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	if _, err := nc.nodes.UpdateStatus(ctx, next, client.UpdateOptions{}); err != nil {
		return fmt.Errorf("mark node %s unknown: %w", node.Name, err)
	}
	nc.recorder.Eventf(node, api.EventTypeNormal, EventNodeNotReady, "Node %s status is now: %s", node.Name, EventNodeNotReady)
	nc.log.Info("node status unknown", "node", node.Name)
	return nil
}

// ensureUnreachableTaint adds node.kubernetes.io/unreachable:NoExecute (and
// drops not-ready, which it replaces) and returns when the taint was added:
// evictions count from then.
func (nc *Controller) ensureUnreachableTaint(ctx context.Context, name string, now time.Time) (time.Time, error) {
	var since time.Time
	err := nc.updateNode(ctx, name, func(n *api.Node) bool {
		if t := unreachableTaint(n); t != nil {
			since = now
			if t.TimeAdded != nil {
				since = t.TimeAdded.Time
			}
			return false
		}
		added := api.NewTime(now)
		var taints []api.Taint
		for _, t := range n.Spec.Taints {
			if !(t.Key == api.TaintNodeNotReady && t.Effect == api.TaintEffectNoExecute) {
				taints = append(taints, t)
			}
		}
		n.Spec.Taints = append(taints, api.Taint{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute, TimeAdded: &added})
		since = added.Time
		nc.log.Info("node tainted", "node", name, "taint", api.TaintNodeUnreachable+":"+string(api.TaintEffectNoExecute))
		return true
	})
	return since, err
}

// removeUnreachableTaint takes the taint away from a node that is back.
func (nc *Controller) removeUnreachableTaint(ctx context.Context, name string) error {
	return nc.updateNode(ctx, name, func(n *api.Node) bool {
		var taints []api.Taint
		for _, t := range n.Spec.Taints {
			if t.Key != api.TaintNodeUnreachable {
				taints = append(taints, t)
			}
		}
		if len(taints) == len(n.Spec.Taints) {
			return false
		}
		n.Spec.Taints = taints
		nc.log.Info("node untainted", "node", name, "taint", api.TaintNodeUnreachable)
		return true
	})
}

// updateNode applies change to a fresh copy of the node and writes it if
// change reports a change, retrying on conflict.
func (nc *Controller) updateNode(ctx context.Context, name string, change func(*api.Node) bool) error {
	return client.RetryOnConflict(client.DefaultRetry, func() error {
		cur, err := nc.nodes.Get(ctx, name, client.GetOptions{})
		if err != nil {
			return err
		}
		next := cur.DeepCopy()
		if !change(next) {
			return nil
		}
		_, err = nc.nodes.Update(ctx, next, client.UpdateOptions{})
		return err
	})
}

func unreachableTaint(n *api.Node) *api.Taint {
	for i := range n.Spec.Taints {
		t := &n.Spec.Taints[i]
		if t.Key == api.TaintNodeUnreachable && t.Effect == api.TaintEffectNoExecute {
			return t
		}
	}
	return nil
}
