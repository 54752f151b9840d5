package nodelifecycle

import (
	"time"

	"kubeloop/api"
)

// nodeHealth is what the controller has seen of one node's heartbeats.
// Kubernetes: nodeHealthData (probeTimestamp, readyTransitionTimestamp,
// status, lease).
type nodeHealth struct {
	// probeTimestamp is when, by this controller's clock, a heartbeat last
	// changed: the lease's renewTime or the Ready condition's
	// lastHeartbeatTime. The node is silent for now - probeTimestamp.
	probeTimestamp time.Time
	leaseRenewTime time.Time
	readyHeartbeat time.Time
}

// observe records the node's and lease's current heartbeats and returns
// the node's health. A node seen for the first time gets a full grace
// period from now, as in Kubernetes.
func (nc *Controller) observe(node *api.Node, lease *api.Lease, now time.Time) nodeHealth {
	nc.mu.Lock()
	defer nc.mu.Unlock()
	h, ok := nc.health[node.Name]
	if !ok {
		h = &nodeHealth{probeTimestamp: now}
		nc.health[node.Name] = h
	}
	if lease != nil && lease.Spec.RenewTime != nil && !lease.Spec.RenewTime.Equal(h.leaseRenewTime) {
		h.leaseRenewTime = lease.Spec.RenewTime.Time
		h.probeTimestamp = now
	}
	if ready := readyCondition(node); ready != nil && !ready.LastHeartbeatTime.Equal(h.readyHeartbeat) {
		h.readyHeartbeat = ready.LastHeartbeatTime.Time
		h.probeTimestamp = now
	}
	return *h
}

// forget drops a deleted node's health.
func (nc *Controller) forget(name string) {
	nc.mu.Lock()
	defer nc.mu.Unlock()
	delete(nc.health, name)
}

func readyCondition(node *api.Node) *api.NodeCondition {
	for i := range node.Status.Conditions {
		if node.Status.Conditions[i].Type == api.NodeReady {
			return &node.Status.Conditions[i]
		}
	}
	return nil
}
