package kubelet

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"kubeloop/api"
	"kubeloop/client"
)

// LeaseDurationSeconds is how long the node Lease is good for after a
// renewal (Kubernetes: nodeLeaseDurationSeconds, 40).
const LeaseDurationSeconds = 40

// Kubernetes' lease controller (component-helpers/apimachinery/lease/
// controller.go): an update is tried maxUpdateRetries times before the
// controller falls back to reading the lease; reads back off
// exponentially up to maxBackoff; each round starts within 4 % after the
// renew interval.
const (
	leaseUpdateRetries = 5
	leaseMaxBackoff    = 7 * time.Second
	leaseJitter        = 0.04
)

// runNodeLease renews the node's Lease in kube-node-lease every
// HeartbeatInterval: the cheap, frequent heartbeat the node lifecycle
// controller watches. Kubernetes: pkg/kubelet/nodelease, the lease
// controller's Run and sync, which also updates from its last written
// copy instead of reading first.
//
// A failed round waits for the next interval, as Kubernetes' does. It
// used to retry after 200 ms: at 1000 nodes on an overloaded apiserver
// (429s, etcd timeouts) that turned a thousand renewals every 10 s into
// five thousand attempts a second, which kept the overload going.
func (kl *Kubelet) runNodeLease(ctx context.Context) {
	var lease *api.Lease
	for {
		lease = kl.syncLease(ctx, lease)
		jittered := time.Duration(float64(kl.opts.HeartbeatInterval) * (1 + leaseJitter*rand.Float64()))
		select {
		case <-ctx.Done():
			return
		case <-time.After(jittered):
		}
	}
}

// syncLease is one renewal round: update the last written lease; failing
// that, read (or create) it with backoff and update that. It returns the
// lease to start the next round from (nil: read first). Kubernetes:
// controller.sync.
func (kl *Kubelet) syncLease(ctx context.Context, last *api.Lease) *api.Lease {
	if last != nil {
		next, err := kl.retryUpdateLease(ctx, last)
		if err == nil {
			return next
		}
		if ctx.Err() != nil {
			return nil
		}
		kl.log.Warn("lease renewal from the last written copy failed, reading it", "err", err)
	}
	cur, created := kl.backoffEnsureLease(ctx)
	if cur == nil || created {
		return cur
	}
	next, err := kl.retryUpdateLease(ctx, cur)
	if err != nil {
		if ctx.Err() == nil {
			kl.log.Warn("lease renewal failed, retrying at the next interval", "err", err, "interval", kl.opts.HeartbeatInterval)
		}
		return cur
	}
	return next
}

// retryUpdateLease renews base, up to leaseUpdateRetries times; a
// conflict reads the lease again first. Kubernetes: retryUpdateLease.
func (kl *Kubelet) retryUpdateLease(ctx context.Context, base *api.Lease) (*api.Lease, error) {
	leases := client.For[*api.Lease](kl.client).Namespace(api.NamespaceNodeLease)
	var err error
	for range leaseUpdateRetries {
		var out *api.Lease
		if out, err = leases.Update(ctx, kl.renewed(base), client.UpdateOptions{}); err == nil {
			return out, nil
		}
		if ctx.Err() != nil {
			return nil, err
		}
		if api.IsConflict(err) {
			if base, _ = kl.backoffEnsureLease(ctx); base == nil {
				return nil, ctx.Err()
			}
		}
	}
	return nil, fmt.Errorf("failed %d attempts to update lease: %w", leaseUpdateRetries, err)
}

// backoffEnsureLease reads the lease, creating it if it does not exist,
// until that succeeds, waiting twice as long after each failure (up to
// leaseMaxBackoff). It returns nil when ctx ends, and whether it created
// the lease. Kubernetes: backoffEnsureLease and ensureLease.
func (kl *Kubelet) backoffEnsureLease(ctx context.Context) (*api.Lease, bool) {
	leases := client.For[*api.Lease](kl.client).Namespace(api.NamespaceNodeLease)
	sleep := 100 * time.Millisecond
	for {
		cur, err := leases.Get(ctx, kl.opts.NodeName, client.GetOptions{})
		created := false
		if api.IsNotFound(err) {
			cur, err = leases.Create(ctx, kl.newLease(), client.CreateOptions{})
			created = true
		}
		if err == nil {
			return cur, created
		}
		sleep = min(2*sleep, leaseMaxBackoff)
		if ctx.Err() == nil {
			kl.log.Warn("could not read or create the node lease", "err", err, "retryIn", sleep)
		}
		select {
		case <-ctx.Done():
			return nil, false
		case <-time.After(sleep):
		}
	}
}

// renewed is base with this renewal's holder, duration and time, and the
// Node as owner if it has none.
func (kl *Kubelet) renewed(base *api.Lease) *api.Lease {
	next := base.DeepCopy()
	holder := kl.opts.NodeName
	duration := int32(LeaseDurationSeconds)
	now := api.NowMicro()
	next.Spec.HolderIdentity, next.Spec.LeaseDurationSeconds, next.Spec.RenewTime = &holder, &duration, &now
	if len(next.OwnerReferences) == 0 {
		next.OwnerReferences = kl.leaseOwner()
	}
	return next
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
