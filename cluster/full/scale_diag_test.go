package full

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof" // the -scale.pprof listener's handlers
	"os"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/cluster"
)

// pprofAddr, when set, is where the growth run serves net/http/pprof
// (127.0.0.1:6060, say) with mutex and block profiling on, so profiles and
// a goroutine dump can be taken at the moment a run slows down, not only
// at its end.
var pprofAddr = flag.String("scale.pprof", "", "serve net/http/pprof on this address, with mutex and block profiling on")

// progressEvery, when set, prints the pods created, bound and Running and
// the process's CPU since the last line to stderr at that interval: where
// the Running rate falls is the moment to take a profile.
var progressEvery = flag.Duration("scale.progress", 0, "print the scale-up's progress to stderr at this interval")

var pprofStarted bool

// startPprof serves net/http/pprof on -scale.pprof once per process.
func startPprof(b *testing.B) {
	if *pprofAddr == "" || pprofStarted {
		return
	}
	pprofStarted = true
	runtime.SetMutexProfileFraction(100)
	runtime.SetBlockProfileRate(int(100 * time.Microsecond))
	l, err := net.Listen("tcp", *pprofAddr)
	require.NoError(b, err)
	go func() { _ = http.Serve(l, nil) }() // DefaultServeMux, where net/http/pprof registers
}

// reportProgress prints o's counts every -scale.progress until stop is
// closed.
func reportProgress(b *testing.B, o *podObserver, start time.Time, stop <-chan struct{}) {
	if *progressEvery <= 0 {
		return
	}
	go func() {
		t := time.NewTicker(*progressEvery)
		defer t.Stop()
		last := processCPU(b)
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			cpu := processCPU(b)
			o.mu.Lock()
			added, bound, running := len(o.added), len(o.bound), len(o.running)
			o.mu.Unlock()
			fmt.Fprintf(os.Stderr, "progress +%3.0fs: created %d bound %d running %d, cpu %.2f cores, goroutines %d\n",
				time.Since(start).Seconds(), added, bound, running,
				(cpu-last).Seconds()/progressEvery.Seconds(), runtime.NumGoroutine())
			last = cpu
		}
	}()
}

// refusals lists the request kinds the in-flight limit refused with 429
// and how often, most refused first: who waits out a Retry-After.
func refusals(b *testing.B, c *cluster.Cluster) string {
	body, err := c.Client.DoRaw(testCtx(b), "GET", "/metrics", nil, nil)
	require.NoError(b, err)
	type series struct {
		labels string
		n      float64
	}
	var all []series
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, "apiserver_request_total{") && strings.Contains(line, `code="429"`) {
			all = append(all, series{line[strings.Index(line, "{") : strings.Index(line, "}")+1], value(b, line)})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].n > all[j].n })
	var parts []string
	for _, s := range all {
		parts = append(parts, fmt.Sprintf("%s %.0f×", s.labels, s.n))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// rssParts is /proc/self/status's split of the resident set: anonymous
// memory (the Go heap, stacks) against file pages (etcd's bbolt file,
// mapped into memory) and shared memory.
func rssParts(b *testing.B) string {
	status, err := os.ReadFile("/proc/self/status")
	require.NoError(b, err)
	var parts []string
	for _, line := range strings.Split(string(status), "\n") {
		for _, name := range []string{"RssAnon:", "RssFile:", "RssShmem:"} {
			if strings.HasPrefix(line, name) {
				parts = append(parts, strings.Join(strings.Fields(line), " "))
			}
		}
	}
	return strings.Join(parts, ", ")
}
