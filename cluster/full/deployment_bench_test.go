package full

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/controllers/deployment"
)

// BenchmarkDeploymentRollout1000 is issue 17's benchmark, beside issue 9's
// BenchmarkScaleTo1000: a Deployment of 1000 replicas (RollingUpdate,
// 25% surge, 25% unavailable) running on 20 simulated nodes is given a
// new image. It reports
//
//   - total-s: from the template update to the Deployment's status saying
//     the rollout is complete (what `kubectl rollout status` waits for);
//   - cpu-ms/pod: CPU time (user + system) of the whole process, i.e. of
//     the whole cluster, per pod replaced (1000 created, 1000 deleted);
//   - max-pods and min-available: the most pods that were not terminated
//     and the fewest that were available, after any pod event of the
//     rollout as this benchmark's own watch saw it; the limits are 1250
//     and 750, and the run fails if either is broken (limit-violations);
//   - pod-events, bench-rewatches: how many pod events were checked, and
//     how often the watch had to be restarted (a relist in between is
//     checked as one snapshot, so its events are not all seen);
//   - requests/pod, conflicts/pod: requests the apiserver served during
//     the rollout (every component's), and 409 Conflicts among them, per
//     pod replaced.
//
// Run with
//
//	go test -run '^$' -bench DeploymentRollout1000 -benchtime 1x -count 4 ./cluster/full/
func BenchmarkDeploymentRollout1000(b *testing.B) {
	b.Run("nodes=20/kubeloop", func(b *testing.B) { benchmarkRollout(b, 20, 1000) })
}

func benchmarkRollout(b *testing.B, nodes int, replicas int32) {
	c, err := Start(testCtx(b), cluster.Options{}, Options{Nodes: nodes})
	require.NoError(b, err)
	defer c.Stop()
	var names []string
	for i := 0; i < nodes; i++ {
		names = append(names, NodeName(i))
	}
	waitNodesReady(b, c, names...)

	// 25% of 1000, surge rounded up, unavailability down: both 250.
	maxPods, minAvailable := int(replicas)+int(replicas)/4, int(replicas)-int(replicas)/4
	var total, cpu time.Duration
	var peak, low, events, rewatches, violations int
	low = int(replicas)
	var requests, conflicts float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		ns := newNamespace(b, c)
		dc := client.For[*api.Deployment](c.Client).Namespace(ns)
		_, err := dc.Create(testCtx(b), benchDeployment(ns, replicas), client.CreateOptions{})
		require.NoError(b, err)
		waitRolledOut(b, c, ns, "web", 0, 5*time.Minute)
		obs := watchRollout(b, c, ns, maxPods, minAvailable)

		before := readCounters(b, c)
		b.StartTimer()
		start := time.Now()
		cpuBefore := processCPU(b)
		var gen int64
		require.NoError(b, client.RetryOnConflict(client.DefaultRetry, func() error {
			d, err := dc.Get(testCtx(b), "web", client.GetOptions{})
			if err != nil {
				return err
			}
			d.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
			d, err = dc.Update(testCtx(b), d, client.UpdateOptions{})
			if err == nil {
				gen = d.Generation
			}
			return err
		}))
		waitRolledOut(b, c, ns, "web", gen, 5*time.Minute)
		total += time.Since(start)
		cpu += processCPU(b) - cpuBefore
		b.StopTimer()
		after := readCounters(b, c)
		requests += after.requests - before.requests
		conflicts += after.conflicts - before.conflicts

		obs.stop()
		r := obs.result()
		peak, low = max(peak, r.peak), min(low, r.low)
		events += r.events
		rewatches += r.rewatches
		violations += len(r.violations)
		b.Logf("rollout of %d: %v; %d pod events, at most %d pods, at least %d available, %d watch restarts",
			replicas, time.Since(start).Round(time.Millisecond), r.events, r.peak, r.low, r.rewatches)
		if len(r.violations) > 0 {
			b.Errorf("limits broken %d times, first: %s", len(r.violations), r.violations[0])
		}
		if i < b.N-1 {
			bg := api.DeletePropagationBackground
			require.NoError(b, dc.Delete(testCtx(b), "web", api.DeleteOptions{PropagationPolicy: &bg}))
			require.Eventually(b, func() bool { return len(listPods(b, c, ns, "app=web")) == 0 }, 5*time.Minute, 100*time.Millisecond)
		}
	}
	n := float64(b.N)
	b.ReportMetric(total.Seconds()/n, "total-s")
	b.ReportMetric(ms(cpu)/n/float64(replicas), "cpu-ms/pod")
	b.ReportMetric(float64(peak), "max-pods")
	b.ReportMetric(float64(low), "min-available")
	b.ReportMetric(float64(violations)/n, "limit-violations")
	b.ReportMetric(float64(events)/n, "pod-events")
	b.ReportMetric(float64(rewatches)/n, "bench-rewatches")
	b.ReportMetric(requests/n/float64(replicas), "requests/pod")
	b.ReportMetric(conflicts/n/float64(replicas), "conflicts/pod")
}

// benchDeployment is the rollout's Deployment, its pods sized like
// BenchmarkScaleTo1000's.
func benchDeployment(ns string, replicas int32) *api.Deployment {
	rs := replicaSet(ns, "web", replicas, "10m", "16Mi")
	surge, unavailable := api.FromString("25%"), api.FromString("25%")
	return &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: ns},
		Spec: api.DeploymentSpec{
			Replicas: &replicas, Selector: rs.Spec.Selector, Template: rs.Spec.Template,
			Strategy: api.DeploymentStrategy{Type: deployment.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}},
			RevisionHistoryLimit: ptrTo(int32(10)), ProgressDeadlineSeconds: ptrTo(int32(600)),
		},
	}
}

func ptrTo[T any](v T) *T { return &v }

// waitRolledOut watches the Deployment until its status is complete for
// generation gen or later (0: any), as `kubectl rollout status` does.
func waitRolledOut(b *testing.B, c *cluster.Cluster, ns, name string, gen int64, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(testCtx(b), timeout)
	defer cancel()
	dc := client.For[*api.Deployment](c.Client).Namespace(ns)
	done := func(d *api.Deployment) bool {
		want := *d.Spec.Replicas
		s := d.Status
		return d.Generation >= gen && s.ObservedGeneration >= d.Generation &&
			s.UpdatedReplicas == want && s.Replicas == want && s.AvailableReplicas == want
	}
	for ctx.Err() == nil {
		l, err := dc.List(ctx, client.ListOptions{FieldSelector: "metadata.name=" + name})
		if err != nil {
			continue
		}
		if len(l.Items) == 1 && done(l.Items[0]) {
			return
		}
		w, err := dc.Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=" + name, ResourceVersion: l.ResourceVersion})
		if err != nil {
			continue
		}
		for ev := range w.ResultChan() {
			if d, ok := ev.Object.(*api.Deployment); ok && done(d) {
				w.Stop()
				return
			}
		}
		w.Stop()
	}
	b.Fatalf("deployment %s/%s not rolled out after %v", ns, name, timeout)
}

// rolloutObserver checks the rolling update's limits after every pod event
// of a namespace. Like podObserver it decodes only what it reads, and
// restarts its watch where the last one ended.
type rolloutObserver struct {
	pods                  *client.DynamicResource
	maxPods, minAvailable int
	ctx                   context.Context
	quit                  context.CancelFunc
	wg                    sync.WaitGroup

	mu                   sync.Mutex
	state                map[string]podState
	nonTerminated, avail int
	res                  rolloutResult
}

type podState struct{ live, available bool }

type rolloutResult struct {
	peak, low, events, rewatches int
	violations                   []string
}

func watchRollout(b *testing.B, c *cluster.Cluster, ns string, maxPods, minAvailable int) *rolloutObserver {
	ctx, cancel := context.WithCancel(testCtx(b))
	o := &rolloutObserver{pods: rolloutPodSummaries(c.Client).Namespace(ns), maxPods: maxPods, minAvailable: minAvailable,
		ctx: ctx, quit: cancel, state: map[string]podState{}}
	rv := o.relist()
	require.NotEmpty(b, rv)
	o.res.peak, o.res.low = o.nonTerminated, o.avail
	o.wg.Add(1)
	go func() {
		defer o.wg.Done()
		for o.ctx.Err() == nil {
			w, err := o.pods.Watch(o.ctx, client.ListOptions{ResourceVersion: rv})
			if err != nil {
				time.Sleep(50 * time.Millisecond) // the apiserver is busy: back off, as a reflector does
				continue
			}
			rv = o.consume(w, rv)
			w.Stop()
			if o.ctx.Err() == nil {
				o.mu.Lock()
				o.res.rewatches++
				o.mu.Unlock()
			}
		}
	}()
	return o
}

// relist replaces the state with a list and returns its resourceVersion
// ("" if the list failed).
func (o *rolloutObserver) relist() string {
	l, err := o.pods.List(o.ctx, client.ListOptions{})
	if err != nil {
		return ""
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.state = map[string]podState{}
	o.nonTerminated, o.avail = 0, 0
	for _, obj := range l.GetItems() {
		o.applyLocked(api.Added, obj.(*rolloutPodSummary))
	}
	o.checkLocked("relist")
	return l.GetListMeta().ResourceVersion
}

func (o *rolloutObserver) consume(w api.Watcher, rv string) string {
	for ev := range w.ResultChan() {
		if ev.Type == api.Error {
			if fresh := o.relist(); fresh != "" {
				return fresh
			}
			return rv
		}
		p, ok := ev.Object.(*rolloutPodSummary)
		if !ok {
			continue
		}
		rv = p.ResourceVersion
		if ev.Type == api.Bookmark {
			continue
		}
		o.mu.Lock()
		o.applyLocked(ev.Type, p)
		o.res.events++
		o.checkLocked(fmt.Sprintf("%s %s rv %s", ev.Type, p.Name, p.ResourceVersion))
		o.mu.Unlock()
	}
	return rv
}

func (o *rolloutObserver) applyLocked(typ api.EventType, p *rolloutPodSummary) {
	old := o.state[p.Name]
	cur := podState{}
	if typ != api.Deleted {
		cur.live = p.DeletionTimestamp == nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed
		for _, c := range p.Status.Conditions {
			if c.Type == api.PodReady {
				cur.available = cur.live && c.Status == api.ConditionTrue
			}
		}
		o.state[p.Name] = cur
	} else {
		delete(o.state, p.Name)
	}
	o.nonTerminated += b2i(cur.live) - b2i(old.live)
	o.avail += b2i(cur.available) - b2i(old.available)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (o *rolloutObserver) checkLocked(where string) {
	o.res.peak = max(o.res.peak, o.nonTerminated)
	o.res.low = min(o.res.low, o.avail)
	if o.nonTerminated > o.maxPods {
		o.res.violations = append(o.res.violations, fmt.Sprintf("%d pods > %d at %s", o.nonTerminated, o.maxPods, where))
	}
	if o.avail < o.minAvailable {
		o.res.violations = append(o.res.violations, fmt.Sprintf("%d available < %d at %s", o.avail, o.minAvailable, where))
	}
}

func (o *rolloutObserver) stop() {
	o.quit()
	o.wg.Wait()
}

func (o *rolloutObserver) result() rolloutResult {
	o.mu.Lock()
	defer o.mu.Unlock()
	r := o.res
	r.violations = append([]string(nil), o.res.violations...)
	return r
}

// rolloutPodSummary is the part of a pod the observer reads: whether it is
// terminated and whether it is ready.
type rolloutPodSummary struct {
	api.TypeMeta   `json:",inline"`
	api.ObjectMeta `json:"metadata,omitempty"`
	Status         struct {
		Phase      api.PodPhase `json:"phase,omitempty"`
		Conditions []struct {
			Type   api.PodConditionType `json:"type"`
			Status api.ConditionStatus  `json:"status"`
		} `json:"conditions,omitempty"`
	} `json:"status"`
}

func (p *rolloutPodSummary) DeepCopyObject() api.Object { c := *p; return &c }

// rolloutPodSummaries is the pods resource decoded into rolloutPodSummary,
// listed as a list of them.
func rolloutPodSummaries(c *client.Client) *client.DynamicResource {
	pods, _ := api.Builtin().ForKind("", "Pod")
	info := *pods
	info.New = func() api.Object { return &rolloutPodSummary{} }
	info.NewList = func() api.ListObject { return &api.List[rolloutPodSummary, *rolloutPodSummary]{} }
	return c.Dynamic(&info)
}
