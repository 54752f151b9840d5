package deployment_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

// podWatch follows a namespace's pods through a watch of its own, as a user
// would, and keeps, after every event, the number of pods that are not
// terminated (running or starting, not being deleted) and of those the
// number available (Ready). Events arrive in etcd order, so each is a true
// snapshot of the namespace at that revision.
type podWatch struct {
	mu   sync.Mutex
	pods map[string]*api.Pod

	// counters over pods, kept in step with every event
	nonTerminated int
	available     int
	events        int
	relists       int

	// limits checked on every event once armed; violations say where
	maxPods, minAvailable int
	armed                 bool
	peakPods, lowAvail    int
	violations            []string

	// onEvent, if set, runs under the lock after every event.
	onEvent func(w *podWatch, ev api.EventType, p *api.Pod)
}

func watchPods(t *testing.T, ns string) *podWatch {
	t.Helper()
	w := &podWatch{pods: map[string]*api.Pod{}}
	pods := client.For[*api.Pod](testCluster.Client).Namespace(ns)
	l, err := pods.List(clustertest.Context(t), client.ListOptions{})
	require.NoError(t, err)
	for _, p := range l.Items {
		w.observe(api.Added, p)
	}
	rv := l.ResourceVersion
	clustertest.Go(t, func(ctx context.Context) {
		for ctx.Err() == nil {
			watcher, err := pods.Watch(ctx, client.ListOptions{ResourceVersion: rv})
			if err != nil {
				continue
			}
			for ev := range watcher.ResultChan() {
				p, ok := ev.Object.(*api.Pod)
				if !ok {
					// An ERROR (too old a version): start again from a
					// list, and say so, since events were skipped.
					if l, err := pods.List(ctx, client.ListOptions{}); err == nil {
						w.resync(l.Items)
						rv = l.ResourceVersion
					}
					break
				}
				rv = p.ResourceVersion
				w.observe(ev.Type, p)
			}
			watcher.Stop()
		}
	})
	return w
}

func podCounts(p *api.Pod) (nonTerminated, available int) {
	if p == nil || p.DeletionTimestamp != nil || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
		return 0, 0
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady && c.Status == api.ConditionTrue {
			return 1, 1
		}
	}
	return 1, 0
}

func (w *podWatch) observe(typ api.EventType, p *api.Pod) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n0, a0 := podCounts(w.pods[p.Name])
	switch typ {
	case api.Added, api.Modified:
		w.pods[p.Name] = p
	case api.Deleted:
		delete(w.pods, p.Name)
	default:
		return
	}
	n1, a1 := podCounts(w.pods[p.Name])
	w.nonTerminated += n1 - n0
	w.available += a1 - a0
	w.events++
	w.check(fmt.Sprintf("%s %s rv %s", typ, p.Name, p.ResourceVersion))
	if w.onEvent != nil {
		w.onEvent(w, typ, p)
	}
}

func (w *podWatch) resync(pods []*api.Pod) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.relists++
	w.pods = map[string]*api.Pod{}
	w.nonTerminated, w.available = 0, 0
	for _, p := range pods {
		w.pods[p.Name] = p
		n, a := podCounts(p)
		w.nonTerminated += n
		w.available += a
	}
	w.check("relist")
}

func (w *podWatch) check(where string) {
	if !w.armed {
		return
	}
	w.peakPods = max(w.peakPods, w.nonTerminated)
	w.lowAvail = min(w.lowAvail, w.available)
	if w.nonTerminated > w.maxPods {
		w.violations = append(w.violations, fmt.Sprintf("%d pods > %d at %s", w.nonTerminated, w.maxPods, where))
	}
	if w.available < w.minAvailable {
		w.violations = append(w.violations, fmt.Sprintf("%d available < %d at %s", w.available, w.minAvailable, where))
	}
}

// arm starts checking the limits on every event from now on.
func (w *podWatch) arm(maxPods, minAvailable int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.maxPods, w.minAvailable, w.armed = maxPods, minAvailable, true
	w.peakPods, w.lowAvail = w.nonTerminated, w.available
	w.check("arm")
}

// result returns what the armed checks saw.
func (w *podWatch) result() (peakPods, lowAvail, events, relists int, violations []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.peakPods, w.lowAvail, w.events, w.relists, append([]string(nil), w.violations...)
}

// counts returns the current non-terminated and available pods.
func (w *podWatch) counts() (nonTerminated, available int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.nonTerminated, w.available
}
