package benchtest

import (
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Rounds is how many turns each side gets when b.N allows: enough that a
// burst of load from elsewhere on the machine falls on every side alike.
const Rounds = 16

// Arm is one side of a benchmark and what Interleave measured of it.
type Arm struct {
	// Unit prefixes the side's metrics: "" for kubeloop (the line's own
	// objects/s), "etcd-" for a reference reported as etcd-objects/s.
	Unit string
	// Op does operation i (0 ≤ i < b.N); each index is used once per arm.
	Op func(i int) error
	// Settle, if set, ends each of the arm's rounds, inside its timing:
	// it waits for the work its operations started elsewhere (a watch
	// receiving the events of its writes) to finish, so that the work is
	// charged to this arm and not to whichever runs next. done is the
	// number of operations the arm has done so far.
	Settle func(done int) error

	Elapsed   time.Duration
	CPU       time.Duration
	Latencies []time.Duration
	N         int
}

// Interleave runs b.N operations of every arm at concurrency workers, in
// rounds of at least one operation per worker; the order of the arms is
// reversed every other round. The timer covers the rounds only.
func Interleave(b *testing.B, concurrency int, arms ...*Arm) {
	size := max(concurrency, b.N/Rounds)
	b.ResetTimer()
	for round, start := 0, 0; start < b.N; round, start = round+1, start+size {
		n := min(size, b.N-start)
		order := slices.Clone(arms)
		if round%2 == 1 {
			slices.Reverse(order)
		}
		for _, arm := range order {
			began, cpu := time.Now(), ProcessCPU(b)
			first := start
			arm.Latencies = append(arm.Latencies, Concurrent(b, concurrency, n, func(i int) error { return arm.Op(first + i) })...)
			if arm.Settle != nil {
				if err := arm.Settle(first + n); err != nil {
					b.Fatal(err)
				}
			}
			arm.Elapsed += time.Since(began)
			arm.CPU += ProcessCPU(b) - cpu
			arm.N += n
		}
	}
	b.StopTimer()
}

// Report writes the arm's rate (objects/s), the process's CPU per
// operation during its rounds (cpu-us/object: etcd, servers and clients
// alike, which follows the neighbours' load less than the rate does) and
// its latency p50/p99 in ms (create-p50-ms, create-p99-ms for op "create").
func (a *Arm) Report(b *testing.B, op string) {
	if a.N == 0 {
		return
	}
	b.ReportMetric(float64(a.N)/a.Elapsed.Seconds(), a.Unit+"objects/s")
	b.ReportMetric(float64(a.CPU.Microseconds())/float64(a.N), a.Unit+"cpu-us/object")
	ReportLatencies(b, a.Unit+op, a.Latencies)
}

// ReportLatencies writes the p50 and p99 of lat as <name>-p50-ms and
// <name>-p99-ms.
func ReportLatencies(b *testing.B, name string, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	lat = slices.Clone(lat)
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, name+"-p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, name+"-p99-ms")
}

// Concurrent runs op(0) … op(n-1) on concurrency workers and returns each
// call's latency. The first error fails the benchmark and stops its worker.
func Concurrent(b *testing.B, concurrency, n int, op func(i int) error) []time.Duration {
	var (
		next atomic.Int64
		mu   sync.Mutex
		all  = make([]time.Duration, 0, n)
		wg   sync.WaitGroup
	)
	for range min(concurrency, n) {
		wg.Go(func() {
			var mine []time.Duration
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					break
				}
				start := time.Now()
				if err := op(i); err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(start))
			}
			mu.Lock()
			all = append(all, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	return all
}

// ProcessCPU is the user and system CPU time the process has used.
func ProcessCPU(b testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
