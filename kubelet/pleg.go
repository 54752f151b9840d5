package kubelet

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"kubeloop/kubelet/runtime"
)

// podLifecycleEvent says that something about a pod's sandbox or
// containers changed since the previous relist. Kubernetes has one event
// per container change (ContainerStarted, ContainerDied, ...); the worker
// re-reads the whole pod anyway, so one event per pod is enough.
type podLifecycleEvent struct {
	podUID    string
	name      string
	namespace string
}

// podRecord is what a relist saw of one pod: the state of its sandboxes
// and containers, by ID. A pod has a handful, so a slice is enough (and a
// map per pod cost a thousand nodes' kubelets 10 MB).
type podRecord struct {
	name, namespace string
	states          []idState
}

type idState struct{ id, state string }

// pleg is the Pod Lifecycle Event Generator: it relists the runtime every
// period and turns differences from the previous relist into events. It is
// how the kubelet notices what it did not do itself, such as a container
// exiting. Kubernetes: pkg/kubelet/pleg/generic.go, GenericPLEG.Relist.
type pleg struct {
	runtime runtime.Runtime
	period  time.Duration
	onEvent func(podLifecycleEvent)
	log     *slog.Logger

	// last is the previous relist's view, by pod UID; only run's goroutine
	// touches it.
	last map[string]podRecord
	// listed and revision: the last relist happened, at this runtime
	// revision (pleg_skip.go).
	listed   bool
	revision uint64
}

func newPLEG(rt runtime.Runtime, period time.Duration, onEvent func(podLifecycleEvent), log *slog.Logger) *pleg {
	return &pleg{runtime: rt, period: period, onEvent: onEvent, log: log, last: map[string]podRecord{}}
}

func (g *pleg) run(ctx context.Context) {
	t := time.NewTicker(g.period)
	defer t.Stop()
	for {
		g.relist(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// relist lists the runtime and reports every pod whose record changed,
// appeared or disappeared.
func (g *pleg) relist(ctx context.Context) {
	skip, rev := g.unchanged()
	if skip {
		return // pleg_skip.go
	}
	sandboxes, err := g.runtime.ListPodSandbox(ctx, nil)
	if err != nil {
		g.log.Warn("relist: list sandboxes", "err", err)
		return
	}
	containers, err := g.runtime.ListContainers(ctx, nil)
	if err != nil {
		g.log.Warn("relist: list containers", "err", err)
		return
	}
	current := make(map[string]podRecord, len(sandboxes))
	for _, sb := range sandboxes {
		r, ok := current[sb.Metadata.UID]
		if !ok {
			r = podRecord{name: sb.Metadata.Name, namespace: sb.Metadata.Namespace}
		}
		r.states = append(r.states, idState{sb.ID, string(sb.State)})
		current[sb.Metadata.UID] = r
	}
	for _, c := range containers {
		if r, ok := current[c.PodUID]; ok {
			r.states = append(r.states, idState{c.ID, string(c.State)})
			current[c.PodUID] = r
		}
	}
	for uid, r := range current {
		if old, ok := g.last[uid]; !ok || !sameStates(old.states, r.states) {
			g.onEvent(podLifecycleEvent{podUID: uid, name: r.name, namespace: r.namespace})
		}
	}
	for uid, old := range g.last {
		if _, ok := current[uid]; !ok {
			g.onEvent(podLifecycleEvent{podUID: uid, name: old.name, namespace: old.namespace})
		}
	}
	g.last = current
	g.listed, g.revision = true, rev
}

// sameStates says a and b hold the same IDs in the same states, in any
// order (a relist lists the runtime's maps).
func sameStates(a, b []idState) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
