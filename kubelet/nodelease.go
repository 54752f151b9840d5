package kubelet

import (
	"context"
	"time"

	"kubeloop/api"
	"kubeloop/client"
)

// LeaseDurationSeconds is how long the node Lease is good for after a
// renewal (Kubernetes: nodeLeaseDurationSeconds, 40).
const LeaseDurationSeconds = 40

// runNodeLease renews the node's Lease in kube-node-lease every
// HeartbeatInterval: the cheap, frequent heartbeat the node lifecycle
// controller watches. Kubernetes: pkg/kubelet/nodelease (component-helpers
// apimachinery/lease/controller.go), which also updates from its last
// written copy instead of reading first.
func (kl *Kubelet) runNodeLease(ctx context.Context) {
	var lease *api.Lease
	for {
		next, err := kl.renewLease(ctx, lease)
		if err != nil && ctx.Err() == nil {
			kl.log.Warn("lease renewal failed", "err", err)
		}
		lease = next
		delay := kl.opts.HeartbeatInterval
		if err != nil {
			delay = min(delay, 200*time.Millisecond)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
	}
}

// renewLease updates last (the lease as last written), or reads or creates
// the lease when there is none; it returns the lease as now written, or nil
// so that the next round reads again.
func (kl *Kubelet) renewLease(ctx context.Context, last *api.Lease) (*api.Lease, error) {
	leases := client.For[*api.Lease](kl.client).Namespace(api.NamespaceNodeLease)
	if last == nil {
		cur, err := leases.Get(ctx, kl.opts.NodeName, client.GetOptions{})
		switch {
		case api.IsNotFound(err):
			return leases.Create(ctx, kl.newLease(), client.CreateOptions{})
		case err != nil:
			return nil, err
		}
		last = cur
	}
	next := last.DeepCopy()
	holder := kl.opts.NodeName
	duration := int32(LeaseDurationSeconds)
	now := api.NowMicro()
	next.Spec.HolderIdentity, next.Spec.LeaseDurationSeconds, next.Spec.RenewTime = &holder, &duration, &now
	if len(next.OwnerReferences) == 0 {
		next.OwnerReferences = kl.leaseOwner()
	}
	out, err := leases.Update(ctx, next, client.UpdateOptions{})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (kl *Kubelet) newLease() *api.Lease {
	holder := kl.opts.NodeName
	duration := int32(LeaseDurationSeconds)
	now := api.NowMicro()
	return &api.Lease{
		ObjectMeta: api.ObjectMeta{Name: kl.opts.NodeName, Namespace: api.NamespaceNodeLease, OwnerReferences: kl.leaseOwner()},
		Spec:       api.LeaseSpec{HolderIdentity: &holder, LeaseDurationSeconds: &duration, RenewTime: &now},
	}
}

// leaseOwner makes the Node the Lease's owner, so deleting the Node lets the
// garbage collector delete its Lease.
func (kl *Kubelet) leaseOwner() []api.OwnerReference {
	kl.mu.Lock()
	uid := kl.nodeUID
	kl.mu.Unlock()
	if uid == "" {
		return nil
	}
	return []api.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: kl.opts.NodeName, UID: uid}}
}
