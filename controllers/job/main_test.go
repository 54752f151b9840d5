package job

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"kubeloop/api"
	"kubeloop/client/record"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
	"kubeloop/controllers/garbagecollector"
	"kubeloop/informers"
	"kubeloop/kubelet"
	"kubeloop/kubelet/runtime"
	"kubeloop/scheduler"
)

// isolatedLabel marks Jobs (and, through their template, pods) that the
// shared controller leaves alone, because their test runs and stops a
// controller of its own.
const isolatedLabel = "kubeloop.test/isolated"

const (
	waitFor = 60 * time.Second
	tick    = 25 * time.Millisecond

	// testNodes run every test's pods; the scheduler spreads them.
	testNodes = 2
	// The pod-failure back-off of the tests: 200 ms doubling to 1 s.
	testFailureBackOff    = 200 * time.Millisecond
	testMaxFailureBackOff = time.Second
)

// testCluster is one apiserver + etcd for the package, with the Job
// controller, the garbage collector, the scheduler and testNodes simulated
// nodes whose runtimes
// fail containers on request (flaky). Tests isolate themselves by
// namespace.
var (
	testCluster *cluster.Cluster
	flaky       = &flakyPlan{failures: map[string]int{}}
)

func TestMain(m *testing.M) {
	comps := []cluster.Component{
		{Name: ControllerName, Run: runController},
		{Name: "garbage-collector", Run: func(ctx context.Context, c *cluster.Cluster) error {
			cl, err := c.NewClient("garbage-collector")
			if err != nil {
				return err
			}
			factory := informers.NewClientInformerFactory(cl, 0, nil)
			gc := garbagecollector.NewController(cl, factory, garbagecollector.Options{})
			factory.Start(ctx)
			gc.Run(ctx, 2)
			factory.Shutdown()
			return nil
		}},
		{Name: "scheduler", Run: func(ctx context.Context, c *cluster.Cluster) error {
			cl, err := c.NewClient("scheduler")
			if err != nil {
				return err
			}
			return scheduler.RunStandalone(ctx, cl, scheduler.Options{})
		}},
	}
	for i := range testNodes {
		comps = append(comps, cluster.Component{Name: fmt.Sprintf("kubelet-%d", i), Run: func(ctx context.Context, c *cluster.Cluster) error {
			return runKubelet(ctx, c, i)
		}})
	}
	clustertest.Main(m, cluster.Options{Components: cluster.Components{Extra: comps}},
		func(c *cluster.Cluster) { testCluster = c })
}

// runController wires the controller as the controller manager does, with
// the test's pod-failure back-off, for everything not isolated.
func runController(ctx context.Context, c *cluster.Cluster) error {
	return runControllerFor(ctx, c, "!"+isolatedLabel)
}

// runControllerFor runs a Job controller that sees only the Jobs and pods
// labelSelector selects, until ctx ends.
func runControllerFor(ctx context.Context, c *cluster.Cluster, labelSelector string) error {
	cl, err := c.NewClient(ControllerName)
	if err != nil {
		return err
	}
	factory := informers.NewClientInformerFactory(cl, 0, func(o *api.ListOptions) {
		o.LabelSelector = labelSelector
	})
	rec := record.NewRecorder(cl, ControllerName, "")
	jm := NewController(cl, informers.For[*api.Job](factory), informers.For[*api.Pod](factory), rec, Options{
		PodFailureBackOff:    testFailureBackOff,
		MaxPodFailureBackOff: testMaxFailureBackOff,
	})
	done := make(chan struct{})
	go func() { defer close(done); rec.Run(ctx) }()
	factory.Start(ctx)
	jm.Run(ctx, 5)
	factory.Shutdown()
	<-done
	return nil
}

func runKubelet(ctx context.Context, c *cluster.Cluster, i int) error {
	node := fmt.Sprintf("job-node-%d", i)
	cl, err := c.NewClient("kubelet-" + node)
	if err != nil {
		return err
	}
	rt := &flakyRuntime{Fake: runtime.NewFake(runtime.FakeConfig{IPPrefix: fmt.Sprintf("10.210.%d.", i)}), plan: flaky}
	kl, err := kubelet.New(cl, kubelet.Options{
		NodeName:           node,
		PodCIDR:            fmt.Sprintf("10.210.%d.0/24", i),
		Runtime:            rt,
		HeartbeatInterval:  200 * time.Millisecond,
		NodeStatusInterval: 200 * time.Millisecond,
		PLEGPeriod:         50 * time.Millisecond,
		RestartBackoffBase: 100 * time.Millisecond,
		RestartBackoffMax:  400 * time.Millisecond,
	})
	if err != nil {
		return err
	}
	return kl.Run(ctx)
}

// flakyPlan says how many more containers of a namespace must fail,
// whatever their command: the way to make "some pods fail, then their
// replacements succeed" out of one pod template.
type flakyPlan struct {
	mu       sync.Mutex
	failures map[string]int
}

// failNext makes the next n containers started in ns exit 1 after 200 ms.
func (p *flakyPlan) failNext(ns string, n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failures[ns] = n
}

func (p *flakyPlan) take(ns string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failures[ns] == 0 {
		return false
	}
	p.failures[ns]--
	return true
}

// flakyRuntime is the fake runtime with the plan's failures added through
// the fake's own knob, the fail-after annotation.
type flakyRuntime struct {
	*runtime.Fake
	plan *flakyPlan
}

func (r *flakyRuntime) CreateContainer(ctx context.Context, sandboxID string, cfg runtime.ContainerConfig) (string, error) {
	sandboxes, err := r.ListPodSandbox(ctx, nil)
	if err != nil {
		return "", err
	}
	for _, sb := range sandboxes {
		if sb.ID == sandboxID && r.plan.take(sb.Metadata.Namespace) {
			ann := map[string]string{runtime.AnnotationFailAfter: "200ms"}
			for k, v := range cfg.Annotations {
				ann[k] = v
			}
			cfg.Annotations = ann
		}
	}
	return r.Fake.CreateContainer(ctx, sandboxID, cfg)
}
