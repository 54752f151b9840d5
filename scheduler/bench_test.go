package scheduler

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

// BenchmarkScheduleThroughput creates the pods first, then measures from
// the scheduler's first cycle until its informer has seen every pod bound:
// pods/s is the scheduler's throughput against a real apiserver and etcd,
// binds included (they run concurrently, the scheduling cycle serially).
// The target is 500 pods/s; Kubernetes' perf tests expect 100.
func BenchmarkScheduleThroughput(b *testing.B) {
	const pods, nodes = 1000, 20
	b.Run(fmt.Sprintf("pods=%d,nodes=%d/kubeloop", pods, nodes), func(b *testing.B) {
		var total time.Duration
		for range b.N {
			total += scheduleOnce(b, pods, nodes)
		}
		b.ReportMetric(float64(pods*b.N)/total.Seconds(), "pods/s")
	})
}

func scheduleOnce(b *testing.B, pods, nodes int) time.Duration {
	b.StopTimer()
	e := newEnv(b, Options{})
	for i := range nodes {
		e.createNode(fmt.Sprintf("n%02d", i), "32", "128Gi")
	}
	createPodsConcurrently(b, e, pods)

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); e.rec.Run(ctx) }()
	e.factory.Start(ctx)
	defer func() {
		cancel()
		wg.Wait()
		e.factory.Shutdown()
	}()
	require.True(b, e.factory.WaitForCacheSync(ctx)["pods"])

	b.StartTimer()
	start := time.Now()
	go func() { defer wg.Done(); e.sched.Run(ctx) }()
	deadline := time.Now().Add(2 * time.Minute)
	for boundPods(e) < pods {
		require.True(b, time.Now().Before(deadline), "only %d/%d pods bound", boundPods(e), pods)
		time.Sleep(2 * time.Millisecond) // polling granularity, not a wait for a condition
	}
	elapsed := time.Since(start)
	b.StopTimer()
	return elapsed
}

func boundPods(e *env) int {
	n := 0
	for _, p := range e.sched.podLister.Namespace(e.ns).List(api.Everything()) {
		if p.Spec.NodeName != "" {
			n++
		}
	}
	return n
}

func createPodsConcurrently(b *testing.B, e *env, n int) {
	pods := client.For[*api.Pod](e.cl).Namespace(e.ns)
	work := make(chan int)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				_, err := pods.Create(context.Background(), e.newPod(fmt.Sprintf("p-%04d", i), "100m", "256Mi"), client.CreateOptions{})
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(b, err)
	}
}
