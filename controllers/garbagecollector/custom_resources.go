package garbagecollector

import (
	"context"
	"strings"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/informer"
)

// DefaultDiscoveryPeriod is how often the collector asks discovery for
// kinds it does not watch yet. Kubernetes' GC resyncs its monitors every
// 30 s (garbagecollector.go, Sync); kubeloop's CRDs are served within a
// second, and a shorter period lets a CR's dependents be collected soon.
const DefaultDiscoveryPeriod = 5 * time.Second

// customMonitors are the informers of the kinds found by discovery — the
// custom resources — each with its own stop, since a CRD can go away.
// Invariant: a kind is in kinds exactly when it has a running monitor.
type customMonitors struct {
	mu    sync.Mutex
	kinds map[string]*customMonitor // "group/Kind"
}

type customMonitor struct {
	info *api.ResourceInfo
	stop context.CancelFunc
}

// kindFor resolves a kind the registry does not know among the custom ones.
func (m *customMonitors) kindFor(group, kind string) (*api.ResourceInfo, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cm, ok := m.kinds[group+"/"+kind]
	if !ok {
		return nil, false
	}
	return cm.info, true
}

// syncMonitors starts a monitor for every listable, watchable, deletable
// kind discovery shows that is neither built in nor watched yet, and stops
// those of kinds that went away. Kubernetes: GarbageCollector.Sync and
// GraphBuilder.syncMonitors over GetDeletableResources.
func (gc *Controller) syncMonitors(ctx context.Context) {
	lists, err := gc.client.ServerResources(ctx)
	if err != nil && len(lists) == 0 {
		gc.log.Info("discovery failed", "err", err)
		return
	}
	found := map[string]*api.ResourceInfo{}
	for _, l := range lists {
		group, version, _ := strings.Cut(l.GroupVersion, "/")
		if version == "" {
			continue // the core group: all built in
		}
		for _, r := range l.Resources {
			if strings.Contains(r.Name, "/") || !hasVerbs(r.Verbs, "list", "watch", "delete") {
				continue
			}
			if _, builtin := gc.registry.ForResource(group, r.Name); builtin {
				continue
			}
			key := group + "/" + r.Kind
			if _, dup := found[key]; !dup { // the preferred version comes first
				found[key] = client.UnstructuredResourceInfo(group, version, r.Kind, r.Name, r.Namespaced)
			}
		}
	}
	gc.custom.mu.Lock()
	defer gc.custom.mu.Unlock()
	for key, cm := range gc.custom.kinds {
		if _, ok := found[key]; !ok {
			cm.stop()
			delete(gc.custom.kinds, key)
			gc.log.Info("stopped monitor", "resource", cm.info.GroupResource().String())
		}
	}
	for key, info := range found {
		if _, ok := gc.custom.kinds[key]; ok {
			continue
		}
		mctx, stop := context.WithCancel(ctx)
		inf := informer.NewSharedIndexInformer(info.Resource, client.NewListWatch(gc.client, info, ""), informer.Options{})
		if _, err := inf.AddEventHandler(gc.dependencyGraphBuilder.handlerFor(info)); err != nil {
			stop()
			continue
		}
		go inf.Run(mctx)
		gc.custom.kinds[key] = &customMonitor{info: info, stop: stop}
		gc.log.Info("started monitor", "resource", info.GroupResource().String())
	}
}

// runDiscovery syncs the monitors every period until ctx ends.
func (gc *Controller) runDiscovery(ctx context.Context, period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		gc.syncMonitors(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func hasVerbs(verbs []string, want ...string) bool {
	have := map[string]bool{}
	for _, v := range verbs {
		have[v] = true
	}
	for _, w := range want {
		if !have[w] {
			return false
		}
	}
	return true
}
