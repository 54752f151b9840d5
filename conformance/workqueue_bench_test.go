package conformance_test

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
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

// cpuMeter reports the process's CPU time per op as "cpu-ns/op" next to
// wall time. The benchmark machine is shared, so wall time swings with other
// people's load; CPU time spent by this process is steadier evidence.
type cpuMeter struct{ start time.Duration }

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU() cpuMeter { return cpuMeter{processCPU()} }

func (m cpuMeter) report(b *testing.B, ops int) {
	b.ReportMetric(float64((processCPU()-m.start).Nanoseconds())/float64(ops), "cpu-ns/op")
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
	cpu := startCPU()

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
	cpu.report(b, b.N)
	b.ReportMetric(float64(processed.Load())/float64(b.N), "gets/op")
}

// BenchmarkQueueSerialAddGetDone is Add, Get, Done of a fresh key on one
// goroutine, with 64 keys always queued: the data-structure cost alone,
// without goroutine hand-offs, so it is far less noisy on a busy machine.
func BenchmarkQueueSerialAddGetDone(b *testing.B) {
	b.Run("kubeloop", func(b *testing.B) { benchSerial(b, workqueue.NewTyped[int]()) })
	b.Run("client-go", func(b *testing.B) { benchSerial(b, cgworkqueue.NewTyped[int]()) })
}

func benchSerial[Q workQueue](b *testing.B, q Q) {
	const backlog = 64
	for i := range backlog {
		q.Add(i)
	}
	b.ReportAllocs()
	cpu := startCPU()
	n := 0
	for b.Loop() {
		q.Add(backlog + n)
		item, _ := q.Get()
		q.Done(item)
		n++
	}
	cpu.report(b, n)
	q.ShutDown()
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
	cpu := startCPU()
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
	cpu.report(b, b.N)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(delays)), "ns/item")
}
