package node

// Skip on a first reading: a speed-up. The Node authorizer asks, for
// every secret, configmap, PVC or token a kubelet reads, which pods are
// bound to that node. Listing the pod watch cache with a field selector
// walks every pod of the cluster each time; with a few thousand pods and
// twenty kubelets starting them, that walk is most of the authorizer's
// time. PodIndex keeps the pods by spec.nodeName instead, fed by a watch
// of the pods' storage, so the question is one map lookup. Kubernetes
// keeps a richer graph (node → pods → secrets, configmaps, PVCs, service
// accounts: plugin/pkg/auth/authorizer/node/graph.go) fed by informers;
// the index is the part of it we need, since the authorizer scans the
// node's few pods for the reference.

import (
	"context"
	"strconv"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/store"
)

// PodIndex holds every pod bound to a node, by node name. Until its first
// list has finished it answers through fallback (a list of the storage).
type PodIndex struct {
	info     *api.ResourceInfo
	storage  store.Interface
	fallback PodsOnNode

	mu     sync.RWMutex
	byNode map[string]map[string]*api.Pod // node → namespace/name → pod
	synced bool
}

// NewPodIndex watches the pods of storage until ctx ends.
func NewPodIndex(ctx context.Context, info *api.ResourceInfo, storage store.Interface, fallback PodsOnNode) *PodIndex {
	x := &PodIndex{info: info, storage: storage, fallback: fallback, byNode: map[string]map[string]*api.Pod{}}
	go x.run(ctx)
	return x
}

// PodsOnNode is the pods bound to nodeName (shared: read only).
func (x *PodIndex) PodsOnNode(ctx context.Context, nodeName string) ([]*api.Pod, error) {
	x.mu.RLock()
	if !x.synced {
		x.mu.RUnlock()
		return x.fallback(ctx, nodeName)
	}
	pods := make([]*api.Pod, 0, len(x.byNode[nodeName]))
	for _, p := range x.byNode[nodeName] {
		pods = append(pods, p)
	}
	x.mu.RUnlock()
	return pods, nil
}

func (x *PodIndex) run(ctx context.Context) {
	for ctx.Err() == nil {
		if err := x.listAndWatch(ctx); err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
}

// listAndWatch lists, then applies the watch's events from the list's
// revision until the watch ends (a 410 included); the caller lists again.
func (x *PodIndex) listAndWatch(ctx context.Context) error {
	res, err := x.storage.List(ctx, x.info.KeyPrefix(), store.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return err
	}
	fresh := map[string]map[string]*api.Pod{}
	for _, obj := range res.Items {
		if p, ok := obj.(*api.Pod); ok {
			put(fresh, p)
		}
	}
	x.mu.Lock()
	x.byNode, x.synced = fresh, true
	x.mu.Unlock()
	w, err := x.storage.Watch(ctx, x.info.KeyPrefix(), store.ListOptions{ResourceVersion: strconv.FormatUint(res.ResourceVersion, 10)})
	if err != nil {
		return err
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		p, ok := ev.Object.(*api.Pod)
		if !ok {
			continue // an ERROR event; the watch ends after it
		}
		x.mu.Lock()
		// A pod's node never changes once set, but a pod may be bound
		// (Modified, nodeName set) after it was Added unbound.
		remove(x.byNode, p)
		if ev.Type != api.Deleted {
			put(x.byNode, p)
		}
		x.mu.Unlock()
	}
	return nil
}

func put(byNode map[string]map[string]*api.Pod, p *api.Pod) {
	if p.Spec.NodeName == "" {
		return
	}
	if byNode[p.Spec.NodeName] == nil {
		byNode[p.Spec.NodeName] = map[string]*api.Pod{}
	}
	byNode[p.Spec.NodeName][p.Namespace+"/"+p.Name] = p
}

func remove(byNode map[string]map[string]*api.Pod, p *api.Pod) {
	if pods := byNode[p.Spec.NodeName]; pods != nil {
		delete(pods, p.Namespace+"/"+p.Name)
		if len(pods) == 0 {
			delete(byNode, p.Spec.NodeName)
		}
	}
}
