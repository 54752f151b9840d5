package full

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
)

// BenchmarkScaleTo1000 is issue 9's benchmark: a ReplicaSet scaled from 0
// to 1000 on 20 simulated nodes whose runtime starts containers at once.
// It reports
//
//   - total-s: from the scale request to the 1000th pod seen Running;
//   - startup-p50-ms, startup-p99-ms: pod startup latency, the Kubernetes
//     SLI (creation → Running as observed through a watch). The start is
//     the moment this benchmark's watch delivers the pod's ADDED event,
//     not creationTimestamp, which has only second granularity; it misses
//     the create request's own latency and the watch's delivery delay
//     (the same delay also applies to the Running event, so it mostly
//     cancels out);
//   - sched-pods/s: bindings per second between the first and the last
//     pod observed with a spec.nodeName;
//   - cpu-ms/pod: CPU time (user + system) the whole process, i.e. the
//     whole cluster, spent per pod while the pods started: the work a pod
//     costs, which unlike the latencies hardly moves when other processes
//     share the machine.
//
// Targets (issue 9): p99 ≤ 1 s, scheduler ≥ 500 pods/s. The whole cluster
// shares the machine's CPU and is CPU-bound during the run, so one run's
// rate swings with the machine (on a 2-core VM from under 500 to over 700
// with the same code); read the median of several. Run with
//
//	go test -run '^$' -bench ScaleTo1000 -benchtime 1x -count 8 ./cluster/full/
func BenchmarkScaleTo1000(b *testing.B) {
	b.Run("nodes=20/kubeloop", func(b *testing.B) { benchmarkScale(b, 20, 1000, 0) })
}

// benchmarkScale scales a ReplicaSet to replicas on nodes nodes; with idle
// > 0 it first measures the idle cluster for that long (measureIdle).
func benchmarkScale(b *testing.B, nodes int, replicas int32, idle time.Duration) {
	// Big clusters take longer than a test's two minutes; allow 20 ms per
	// pod on top of five minutes.
	deadline := 5*time.Minute + time.Duration(replicas)*20*time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), deadline+5*time.Minute)
	defer cancel()
	startPprof(b)
	clusterStart := time.Now()
	// The in-flight limits of Kubernetes' own scale tests ("we do the same
	// in production clusters"): at the defaults (400/200) a 1000-node
	// scale-up had one request in ten refused with 429, each costing its
	// client a second's Retry-After.
	c, err := Start(ctx, cluster.Options{MaxRequestsInFlight: 1500, MaxMutatingRequestsInFlight: 500}, Options{Nodes: nodes})
	require.NoError(b, err)
	defer c.Stop()
	waitAllNodesReady(b, c, nodes, deadline)
	clusterReady := time.Since(clusterStart)
	var idleCPU float64
	if idle > 0 {
		idleCPU = measureIdle(b, nodes, idle)
	}

	before := readCounters(b, c)
	var total time.Duration
	restarts := 0
	var startup []time.Duration
	var schedRate float64
	var cpu, list time.Duration
	var mem memory
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		ns := newNamespace(b, c)
		createReplicaSet(b, c, replicaSet(ns, "scale", 0, "10m", "16Mi"))
		obs := observePods(ctx, b, c, ns, int(replicas))
		b.StartTimer()

		start := time.Now()
		cpuBefore := processCPU(b)
		scaleTo(b, c, ns, "scale", replicas)
		stopProgress := make(chan struct{})
		reportProgress(b, obs, start, stopProgress)
		select {
		case <-obs.done:
		case <-time.After(deadline):
			b.Fatalf("not all %d pods Running after %v: %s", replicas, deadline, obs)
		}
		close(stopProgress)
		total += time.Since(start)
		cpu += processCPU(b) - cpuBefore
		b.StopTimer()
		if i == b.N-1 {
			// The cluster's memory is read before the LIST below: that
			// LIST decodes every pod into this process, the benchmark's
			// client's memory, which kubectl holds in a process of its own.
			mem = readMemory(b)
		}
		list += timeList(b, c, ns, int(replicas))
		obs.stop()
		startup = append(startup, obs.startupLatencies()...)
		schedRate += obs.bindRate()
		restarts += obs.rewatchs
		b.Logf("%d pods: %s; %s", replicas, obs, obs.breakdown(start))
		b.Logf("apiserver time: %s", requestTimes(b, c))
		b.Logf("refused (429): %s", refusals(b, c))
		if i < b.N-1 {
			deleteAndWait(b, c, ns, "scale")
		}
	}
	sort.Slice(startup, func(i, j int) bool { return startup[i] < startup[j] })
	b.ReportMetric(total.Seconds()/float64(b.N), "total-s")
	b.ReportMetric(ms(percentile(startup, 0.50)), "startup-p50-ms")
	b.ReportMetric(ms(percentile(startup, 0.99)), "startup-p99-ms")
	b.ReportMetric(schedRate/float64(b.N), "sched-pods/s")
	b.ReportMetric(ms(cpu)/float64(b.N)/float64(replicas), "cpu-ms/pod")
	// Diagnostics: how often the apiserver closed a slow watcher (every
	// component's, not only ours) and our own watch was restarted, and
	// how many requests (and 409 Conflicts among them) a pod cost.
	after := readCounters(b, c)
	b.ReportMetric((after.closedWatchers-before.closedWatchers)/float64(b.N), "watchers-closed")
	b.ReportMetric((after.requests-before.requests)/float64(b.N)/float64(replicas), "requests/pod")
	b.ReportMetric((after.conflicts-before.conflicts)/float64(b.N)/float64(replicas), "conflicts/pod")
	b.ReportMetric((after.throttled-before.throttled)/float64(b.N), "429s")
	b.ReportMetric(float64(restarts)/float64(b.N), "bench-rewatches")
	// Size: how long the nodes took to register and become Ready, a LIST
	// of all the pods, and the memory of the whole process (RSS, its peak,
	// and the Go heap in use) with every pod Running.
	b.ReportMetric(clusterReady.Seconds(), "cluster-ready-s")
	if idle > 0 {
		// Reported here: ResetTimer drops metrics reported before it.
		b.ReportMetric(idleCPU, "idle-cpu-ms/node-s")
	}
	b.ReportMetric(ms(list)/float64(b.N), "list-ms")
	b.Logf("memory: %s", mem.parts)
	b.ReportMetric(float64(mem.rss)/(1<<20), "rss-MiB")
	b.ReportMetric(float64(mem.peak)/(1<<20), "rss-peak-MiB")
	b.ReportMetric(float64(mem.heapInuse)/(1<<20), "heap-MiB")
	b.ReportMetric(float64(mem.stackInuse)/(1<<20), "stack-MiB")
	b.ReportMetric(float64(mem.goroutines), "goroutines")
	b.ReportMetric(float64(mem.live)/(1<<20), "live-heap-MiB")
	afterList, _ := processRSS(b)
	b.ReportMetric(float64(afterList)/(1<<20), "rss-after-list-MiB")
	writeHeapProfile(b, nodes)
}

// memory is the process's memory with every pod Running: RSS, its peak,
// the Go heap in use (garbage included), stacks, goroutines, and what the
// heap holds apart from garbage.
type memory struct {
	rss, peak                   int64
	heapInuse, stackInuse, live uint64
	goroutines                  int
	parts                       string // rssParts: anonymous and file pages
}

func readMemory(b *testing.B) memory {
	var m memory
	m.rss, m.peak = processRSS(b)
	m.parts = rssParts(b)
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	m.heapInuse, m.stackInuse = stats.HeapInuse, stats.StackInuse
	m.goroutines = runtime.NumGoroutine()
	// RSS follows the GC's target, about twice the live heap (GOGC 100).
	// The least of three forced GCs a second apart, so that a LIST being
	// encoded at that moment (an informer relisting after its watch was
	// closed: 30 MB at 6000 pods) does not count as held.
	m.live = math.MaxUint64
	for i := range 3 {
		if i > 0 {
			time.Sleep(time.Second) // spaced samples of a measurement, not a wait for a condition
		}
		runtime.GC()
		runtime.ReadMemStats(&stats)
		m.live = min(m.live, stats.HeapAlloc)
	}
	return m
}

// waitAllNodesReady waits for nodes Ready nodes, reading them with one
// LIST per try rather than a GET per node.
func waitAllNodesReady(b *testing.B, c *cluster.Cluster, nodes int, deadline time.Duration) {
	require.Eventually(b, func() bool {
		l, err := client.For[*api.Node](c.Client).List(testCtx(b), client.ListOptions{})
		if err != nil {
			return false
		}
		ready := 0
		for _, n := range l.Items {
			if nodeCondition(n, api.NodeReady) == api.ConditionTrue {
				ready++
			}
		}
		return ready >= nodes
	}, deadline, 100*time.Millisecond, "%d nodes never became Ready", nodes)
}

// timeList times one LIST of the namespace's pods, as kubectl get pods
// sends it (resourceVersion unset: a consistent read).
func timeList(b *testing.B, c *cluster.Cluster, ns string, want int) time.Duration {
	start := time.Now()
	l, err := client.For[*api.Pod](c.Client).Namespace(ns).List(testCtx(b), client.ListOptions{})
	d := time.Since(start)
	require.NoError(b, err)
	require.Len(b, l.Items, want)
	return d
}

// processRSS is this process's resident set and its peak (VmRSS, VmHWM).
func processRSS(b *testing.B) (rss, peak int64) {
	status, err := os.ReadFile("/proc/self/status")
	require.NoError(b, err)
	for _, line := range strings.Split(string(status), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb << 10
		case "VmHWM:":
			peak = kb << 10
		}
	}
	return rss, peak
}

// scaleTo sets replicas through the scale subresource, as kubectl scale
// does, retrying when the controller's status write got in between.
func scaleTo(t testing.TB, c *cluster.Cluster, ns, name string, replicas int32) {
	t.Helper()
	rsClient := client.For[*api.ReplicaSet](c.Client).Namespace(ns)
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		scale, err := rsClient.GetScale(testCtx(t), name)
		if err != nil {
			return err
		}
		scale.Spec.Replicas = replicas
		_, err = rsClient.UpdateScale(testCtx(t), name, scale, client.UpdateOptions{})
		return err
	}))
}

// processCPU is the user and system time this process has used.
func processCPU(t testing.TB) time.Duration {
	var ru syscall.Rusage
	require.NoError(t, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// percentile of sorted durations, nearest rank.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	i = max(0, min(i, len(sorted)-1))
	return sorted[i]
}

func deleteAndWait(b *testing.B, c *cluster.Cluster, ns, name string) {
	bg := api.DeletePropagationBackground
	require.NoError(b, client.For[*api.ReplicaSet](c.Client).Namespace(ns).Delete(testCtx(b), name, api.DeleteOptions{PropagationPolicy: &bg}))
	require.Eventually(b, func() bool {
		return len(listPods(b, c, ns, "app="+name)) == 0
	}, 5*time.Minute, 100*time.Millisecond)
}

// podObserver times every pod of a namespace through a watch. The
// apiserver closes watchers that fall behind, so, like a reflector, it
// watches again from the last resourceVersion it saw (and relists if that
// is too old); a pod's times are those of the first event that showed it.
type podObserver struct {
	pods *client.Resource[*api.Pod]
	// summaries watches the same pods but decodes only what see reads.
	summaries *client.DynamicResource
	want      int
	done      chan struct{}
	wg        sync.WaitGroup
	ctx       context.Context
	quit      context.CancelFunc

	mu       sync.Mutex
	added    map[string]time.Time
	bound    map[string]time.Time
	running  map[string]time.Time
	rewatchs int
}

// observePods starts watching ns's pods until ctx ends or stop is called.
// ctx must outlive the scale-up: testCtx's two minutes did not, and the
// observer stopped counting in the middle of every big run.
func observePods(ctx context.Context, b *testing.B, c *cluster.Cluster, ns string, want int) *podObserver {
	ctx, cancel := context.WithCancel(ctx)
	o := &podObserver{pods: client.For[*api.Pod](c.Client).Namespace(ns), summaries: podSummaries(c.Client).Namespace(ns),
		want: want, done: make(chan struct{}),
		ctx: ctx, quit: cancel,
		added: map[string]time.Time{}, bound: map[string]time.Time{}, running: map[string]time.Time{}}
	l, err := o.pods.List(ctx, client.ListOptions{})
	require.NoError(b, err)
	require.Empty(b, l.Items)
	o.wg.Add(1)
	go o.loop(l.ResourceVersion)
	return o
}

func (o *podObserver) loop(rv string) {
	defer o.wg.Done()
	for o.ctx.Err() == nil {
		w, err := o.summaries.Watch(o.ctx, client.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true})
		if api.IsExpired(err) {
			// The ring has moved past rv (a big scale-up outgrows it
			// while a closed watch waits): relist, as a reflector does.
			// Retrying the same rv would fail forever.
			rv = o.relist(rv)
			continue
		}
		if err != nil {
			if o.ctx.Err() == nil {
				time.Sleep(50 * time.Millisecond) // the apiserver is busy: retry, as a reflector backs off
			}
			continue
		}
		rv = o.consume(w, rv)
		w.Stop()
		if o.ctx.Err() == nil {
			o.mu.Lock()
			o.rewatchs++
			o.mu.Unlock()
		}
	}
}

// consume reads one watch until it ends and returns the resourceVersion to
// resume from ("" after an ERROR, which makes the next watch relist).
func (o *podObserver) consume(w api.Watcher, rv string) string {
	for ev := range w.ResultChan() {
		now := time.Now()
		if ev.Type == api.Error {
			return o.relist(rv)
		}
		pod, ok := ev.Object.(*podSummary)
		if !ok {
			continue
		}
		rv = pod.ResourceVersion
		if ev.Type != api.Deleted && ev.Type != api.Bookmark {
			o.see(string(pod.UID), pod.Spec.NodeName, pod.Status.Phase, now)
		}
	}
	return rv
}

// relist reads every pod, sees each, and returns the list's
// resourceVersion to watch from (rv again if the list failed).
func (o *podObserver) relist(rv string) string {
	l, err := o.pods.List(o.ctx, client.ListOptions{})
	if err != nil {
		if o.ctx.Err() == nil {
			time.Sleep(50 * time.Millisecond) // as after a failed watch
		}
		return rv
	}
	for _, p := range l.Items {
		o.see(string(p.UID), p.Spec.NodeName, p.Status.Phase, time.Now())
	}
	return l.ResourceVersion
}

func (o *podObserver) see(uid, nodeName string, phase api.PodPhase, now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, seen := o.added[uid]; !seen {
		o.added[uid] = now
	}
	if _, seen := o.bound[uid]; !seen && nodeName != "" {
		o.bound[uid] = now
	}
	if _, seen := o.running[uid]; !seen && phase == api.PodRunning {
		o.running[uid] = now
		if len(o.running) == o.want {
			close(o.done)
		}
	}
}

// podSummary is the part of a pod the observer reads. The observer is the
// measuring instrument and shares the cluster's CPU: decoding whole pods
// (three events each) would charge the cluster for work no component of it
// does. A load test on a real cluster watches from another machine.
type podSummary struct {
	api.TypeMeta   `json:",inline"`
	api.ObjectMeta `json:"metadata,omitempty"`
	Spec           struct {
		NodeName string `json:"nodeName,omitempty"`
	} `json:"spec"`
	Status struct {
		Phase api.PodPhase `json:"phase,omitempty"`
	} `json:"status"`
}

func (p *podSummary) DeepCopyObject() api.Object { c := *p; return &c }

// podSummaries is the pods resource decoded into podSummary.
func podSummaries(c *client.Client) *client.DynamicResource {
	pods, _ := api.Builtin().ForKind("", "Pod")
	info := *pods
	info.New = func() api.Object { return &podSummary{} }
	return c.Dynamic(&info)
}

func (o *podObserver) stop() {
	o.quit()
	o.wg.Wait()
}

func (o *podObserver) startupLatencies() []time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []time.Duration
	for uid, r := range o.running {
		out = append(out, r.Sub(o.added[uid]))
	}
	return out
}

// breakdown says where the startup time went: the last pod's creation,
// binding and start after the scale request, and the p50/p99 of the
// created → bound and bound → Running stages.
func (o *podObserver) breakdown(start time.Time) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var lastAdded, lastBound, lastRunning time.Time
	var toBind, toRun []time.Duration
	for uid, a := range o.added {
		lastAdded = later(lastAdded, a)
		bd, ok := o.bound[uid]
		if !ok {
			continue
		}
		lastBound = later(lastBound, bd)
		toBind = append(toBind, bd.Sub(a))
		if r, ok := o.running[uid]; ok {
			lastRunning = later(lastRunning, r)
			toRun = append(toRun, r.Sub(bd))
		}
	}
	for _, d := range [][]time.Duration{toBind, toRun} {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	}
	return fmt.Sprintf("last created +%v, last bound +%v, last Running +%v; created→bound p50 %v p99 %v; bound→Running p50 %v p99 %v",
		lastAdded.Sub(start).Round(time.Millisecond), lastBound.Sub(start).Round(time.Millisecond), lastRunning.Sub(start).Round(time.Millisecond),
		percentile(toBind, .5).Round(time.Millisecond), percentile(toBind, .99).Round(time.Millisecond),
		percentile(toRun, .5).Round(time.Millisecond), percentile(toRun, .99).Round(time.Millisecond))
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// bindRate is bindings per second from the first to the last observed.
func (o *podObserver) bindRate() float64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	var first, last time.Time
	for _, t := range o.bound {
		if first.IsZero() || t.Before(first) {
			first = t
		}
		if t.After(last) {
			last = t
		}
	}
	span := last.Sub(first).Seconds()
	if len(o.bound) < 2 || span <= 0 {
		return 0
	}
	return float64(len(o.bound)-1) / span
}

// String summarises the observation for a failing run.
func (o *podObserver) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return fmt.Sprintf("added %d, bound %d, running %d, watches restarted %d", len(o.added), len(o.bound), len(o.running), o.rewatchs)
}

// apiserverCounters reads the apiserver's counters that say where the load
// came from: watchers it closed for falling behind (each one makes an
// informer relist), requests served, 409 Conflicts, and 429s (requests the
// in-flight limit refused; the client waits a second and tries again).
type apiserverCounters struct{ closedWatchers, requests, conflicts, throttled float64 }

func readCounters(b testing.TB, c *cluster.Cluster) apiserverCounters {
	body, err := c.Client.DoRaw(testCtx(b), "GET", "/metrics", nil, nil)
	require.NoError(b, err)
	var out apiserverCounters
	for _, line := range strings.Split(string(body), "\n") {
		var into *float64
		switch {
		case strings.HasPrefix(line, "kubeloop_watchcache_terminated_watchers_total"):
			into = &out.closedWatchers
		case strings.HasPrefix(line, "apiserver_request_total{"):
			into = &out.requests
			if strings.Contains(line, `code="409"`) {
				out.conflicts += value(b, line)
			}
			if strings.Contains(line, `code="429"`) {
				out.throttled += value(b, line)
			}
		default:
			continue
		}
		*into += value(b, line)
	}
	return out
}

func value(b testing.TB, line string) float64 {
	f := strings.Fields(line)
	v, err := strconv.ParseFloat(f[len(f)-1], 64)
	require.NoError(b, err)
	return v
}
