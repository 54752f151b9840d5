package kubelet

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"kubeloop/api"
	"kubeloop/client"
)

// Node labels the kubelet always sets (k8s.io/api/core/v1 well_known_labels.go).
const (
	LabelHostname = "kubernetes.io/hostname"
	LabelOS       = "kubernetes.io/os"
	LabelArch     = "kubernetes.io/arch"
)

// registerWithAPIServer creates the Node, or adopts an existing one of the
// same name (a restarted kubelet), then writes its full status. It retries
// until it succeeds or ctx ends. Kubernetes: kubelet_node_status.go,
// registerWithAPIServer and tryRegisterWithAPIServer.
func (kl *Kubelet) registerWithAPIServer(ctx context.Context) error {
	delay := 100 * time.Millisecond
	for {
		err := kl.tryRegister(ctx)
		if err == nil {
			return nil
		}
		kl.log.Warn("node registration failed", "err", err, "retryIn", delay)
		select {
		case <-ctx.Done():
			return fmt.Errorf("kubelet %s: register node: %w", kl.opts.NodeName, err)
		case <-time.After(delay):
		}
		delay = min(2*delay, 7*time.Second)
	}
}

func (kl *Kubelet) tryRegister(ctx context.Context) error {
	nodes := client.For[*api.Node](kl.client)
	want := kl.initialNode()
	node, err := nodes.Create(ctx, want, client.CreateOptions{})
	if api.IsAlreadyExists(err) {
		err = client.RetryOnConflict(client.DefaultRetry, func() error {
			cur, err := nodes.Get(ctx, kl.opts.NodeName, client.GetOptions{})
			if err != nil {
				return err
			}
			next := cur.DeepCopy()
			if next.Labels == nil {
				next.Labels = map[string]string{}
			}
			for k, v := range want.Labels {
				next.Labels[k] = v
			}
			if next.Spec.PodCIDR == "" {
				next.Spec.PodCIDR, next.Spec.PodCIDRs = want.Spec.PodCIDR, want.Spec.PodCIDRs
			}
			node, err = nodes.Update(ctx, next, client.UpdateOptions{})
			return err
		})
	}
	if err != nil {
		return err
	}
	kl.mu.Lock()
	kl.nodeUID = node.UID
	kl.mu.Unlock()
	return kl.updateNodeStatus(ctx, true)
}

// initialNode is the Node this kubelet registers. Kubernetes:
// initialNode; the status is written separately because our apiserver, like
// Kubernetes' status strategy for most kinds, drops status on create.
func (kl *Kubelet) initialNode() *api.Node {
	labels := map[string]string{}
	for k, v := range kl.opts.Labels {
		labels[k] = v
	}
	labels[LabelHostname] = kl.opts.NodeName
	labels[LabelOS] = "linux"
	labels[LabelArch] = "amd64"
	return &api.Node{
		ObjectMeta: api.ObjectMeta{Name: kl.opts.NodeName, Labels: labels},
		Spec:       api.NodeSpec{PodCIDR: kl.opts.PodCIDR, PodCIDRs: []string{kl.opts.PodCIDR}},
	}
}

// runNodeStatus checks the node's status every NodeStatusInterval and
// writes it when it changed or when NodeStatusReportInterval has passed.
// Kubernetes: syncNodeStatus / updateNodeStatus.
func (kl *Kubelet) runNodeStatus(ctx context.Context) {
	t := time.NewTicker(kl.opts.NodeStatusInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := kl.updateNodeStatus(ctx, false); err != nil && ctx.Err() == nil {
			kl.log.Warn("node status update failed", "err", err)
		}
	}
}

// updateNodeStatus writes the node's status if it differs from what the
// kubelet reports (for example, Ready=Unknown set by the node lifecycle
// controller), or if force, or if the last heartbeat is older than the
// report interval.
//
// The first read of each round accepts the apiserver's cached copy
// (resourceVersion "0"), as Kubernetes' tryUpdateNodeStatus does: every
// node reads its Node every NodeStatusInterval, and consistent reads would
// send a thousand nodes' worth of them to etcd. A stale copy costs at most
// a 409 Conflict, after which the retry reads from etcd. The forced write
// right after registration reads from etcd: the cache may not have the
// new Node yet.
func (kl *Kubelet) updateNodeStatus(ctx context.Context, force bool) error {
	nodes := client.For[*api.Node](kl.client)
	fromCache := !force
	return client.RetryOnConflict(client.DefaultRetry, func() error {
		opts := client.GetOptions{}
		if fromCache {
			opts.ResourceVersion, fromCache = "0", false
		}
		cur, err := nodes.Get(ctx, kl.opts.NodeName, opts)
		if err != nil {
			return err
		}
		now := time.Now()
		want := kl.nodeStatus(cur.Status, now)
		if !force && !nodeStatusChanged(cur.Status, want) &&
			now.Sub(readyHeartbeat(cur.Status)) < kl.opts.NodeStatusReportInterval {
			return nil
		}
		next := cur.DeepCopy()
		next.Status = want
		if _, err := nodes.UpdateStatus(ctx, next, client.UpdateOptions{}); err != nil {
			return err
		}
		kl.log.Info("node status", "ready", "True")
		return nil
	})
}

// nodeStatus is the status the kubelet reports: capacity from the options,
// fake addresses and system info, and healthy conditions. Kubernetes:
// setNodeStatus and its setters (nodestatus/setters.go).
func (kl *Kubelet) nodeStatus(old api.NodeStatus, now time.Time) api.NodeStatus {
	capacity := api.ResourceList{
		api.ResourceCPU:    api.Quantity(kl.opts.CPU),
		api.ResourceMemory: api.Quantity(kl.opts.Memory),
		api.ResourcePods:   api.Quantity(strconv.Itoa(kl.opts.Pods)),
	}
	hb := api.NewTime(now)
	cond := func(t api.NodeConditionType, s api.ConditionStatus, reason, msg string) api.NodeCondition {
		c := api.NodeCondition{Type: t, Status: s, Reason: reason, Message: msg, LastHeartbeatTime: hb, LastTransitionTime: hb}
		for _, o := range old.Conditions {
			if o.Type == t && o.Status == s {
				c.LastTransitionTime = o.LastTransitionTime
			}
		}
		return c
	}
	return api.NodeStatus{
		Capacity:    capacity,
		Allocatable: capacity.DeepCopy(),
		Conditions: []api.NodeCondition{
			cond(api.NodeMemoryPressure, api.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
			cond(api.NodeDiskPressure, api.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
			cond(api.NodePIDPressure, api.ConditionFalse, "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
			cond(api.NodeReady, api.ConditionTrue, "KubeletReady", "kubelet is posting ready status"),
		},
		Addresses: []api.NodeAddress{
			{Type: api.NodeInternalIP, Address: kl.opts.NodeIP},
			{Type: api.NodeHostName, Address: kl.opts.NodeName},
		},
		NodeInfo: api.NodeSystemInfo{
			MachineID:               kl.opts.NodeName,
			SystemUUID:              kl.opts.NodeName,
			BootID:                  kl.opts.NodeName,
			KernelVersion:           "6.8.0-kubeloop",
			OSImage:                 "kubeloop simulated node",
			ContainerRuntimeVersion: "kubeloop://fake",
			KubeletVersion:          KubeletVersion,
			OperatingSystem:         "linux",
			Architecture:            "amd64",
		},
	}
}

// nodeStatusChanged compares everything but the heartbeat times.
func nodeStatusChanged(cur, want api.NodeStatus) bool {
	strip := func(s api.NodeStatus) api.NodeStatus {
		out := s
		out.Conditions = nil
		for _, c := range s.Conditions {
			c.LastHeartbeatTime, c.LastTransitionTime = api.Time{}, api.Time{}
			out.Conditions = append(out.Conditions, c)
		}
		return out
	}
	return !api.SemanticEqual(strip(cur), strip(want))
}

func readyHeartbeat(s api.NodeStatus) time.Time {
	for _, c := range s.Conditions {
		if c.Type == api.NodeReady {
			return c.LastHeartbeatTime.Time
		}
	}
	return time.Time{}
}
