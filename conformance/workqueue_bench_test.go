package conformance_test

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	cgworkqueue "k8s.io/client-go/util/workqueue"

	"kubeloop/workqueue"
)

// workQueue is the part of TypedInterface[int] the benchmarks drive. Both
// kubeloop's and client-go's queues satisfy it as they are, so one generic
// body runs against either and the numbers compare like for like.
type workQueue interface {
	Add(item int)
	Get() (item int, shutdown bool)
	Done(item int)
	ShutDown()
}

type delayingWorkQueue interface {
	workQueue
	AddAfter(item int, d time.Duration)
}

// BenchmarkQueueAddGetDone: `workers` producers add b.N keys in total while
// `workers` workers Get and Done them. unique keys never coalesce; hot100
// cycles through 100 keys, so most adds hit the dirty set.
func BenchmarkQueueAddGetDone(b *testing.B) {
	for _, workers := range []int{1, 4} {
		for _, keys := range []struct {
			name  string
			space int // 0: unique
		}{{"unique", 0}, {"hot100", 100}} {
			prefix := "workers=" + strconv.Itoa(workers) + "/" + keys.name + "/"
			b.Run(prefix+"kubeloop", func(b *testing.B) {
				benchAddGetDone(b, workqueue.NewTyped[int], workers, keys.space)
			})
			b.Run(prefix+"client-go", func(b *testing.B) {
				benchAddGetDone(b, cgworkqueue.NewTyped[int], workers, keys.space)
			})
		}
	}
}

func benchAddGetDone[Q workQueue](b *testing.B, newQueue func() Q, workers, keySpace int) {
	q := newQueue()
	var processed atomic.Int64
	var workersWG sync.WaitGroup
	for range workers {
		workersWG.Go(func() {
			for {
				item, shutdown := q.Get()
				if shutdown {
					return
				}
				processed.Add(1)
				q.Done(item)
			}
		})
	}
	b.ReportAllocs()
	b.ResetTimer()

	var producersWG sync.WaitGroup
	for p := range workers {
		producersWG.Go(func() {
			for i := p; i < b.N; i += workers {
				key := i
				if keySpace > 0 {
					key = i % keySpace
				}
				q.Add(key)
			}
		})
	}
	producersWG.Wait()
	q.ShutDown() // workers drain what is queued, then exit
	workersWG.Wait()

	b.StopTimer()
	b.ReportMetric(float64(processed.Load())/float64(b.N), "gets/op")
}

// BenchmarkDelayingQueueAddAfter10k: one op is AddAfter of 10k items with
// delays up to 1 ms (the same pseudo-random delays for both), while a worker
// drains all 10k.
func BenchmarkDelayingQueueAddAfter10k(b *testing.B) {
	const n = 10_000
	rng := rand.New(rand.NewPCG(1, 2))
	delays := make([]time.Duration, n)
	for i := range delays {
		delays[i] = time.Duration(1+rng.IntN(1000)) * time.Microsecond
	}
	b.Run("kubeloop", func(b *testing.B) {
		benchAddAfter(b, workqueue.NewTypedDelayingQueue[int], delays)
	})
	b.Run("client-go", func(b *testing.B) {
		benchAddAfter(b, cgworkqueue.NewTypedDelayingQueue[int], delays)
	})
}

func benchAddAfter[Q delayingWorkQueue](b *testing.B, newQueue func() Q, delays []time.Duration) {
	b.ReportAllocs()
	for range b.N {
		q := newQueue()
		drained := make(chan struct{})
		go func() {
			defer close(drained)
			for range delays {
				item, _ := q.Get()
				q.Done(item)
			}
		}()
		for i, d := range delays {
			q.AddAfter(i, d)
		}
		<-drained
		q.ShutDown()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(delays)), "ns/item")
}
