package full

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/cluster"
)

// scaleNodes lists the cluster sizes BenchmarkScaleGrowth runs; empty (the
// default) skips it, so `go test -bench .` stays short. make bench-scale
// sets it to 20,200,1000.
var scaleNodes = flag.String("scale.nodes", "", "comma-separated node counts for BenchmarkScaleGrowth (30 pods per node)")

// podsPerNode is issue 20's density: 30 pods per node, 30k at 1000 nodes.
// A smaller -scale.pods-per-node gives a quicker look at a size.
var podsPerNode = flag.Int("scale.pods-per-node", 30, "pods per node for BenchmarkScaleGrowth")

// idleWindow is how long BenchmarkScaleGrowth watches the cluster with
// every node Ready and no pods: one round of every node's 10 s heartbeats
// (lease renewal, node-status check). Its figure, idle-cpu-ms/node-s, is
// the CPU an idle node costs per second; it stays flat across sizes when
// that cost is linear in the nodes.
const idleWindow = 10 * time.Second

// idleProfile, when set, is where the growth run writes a CPU profile of
// each size's idle window (NODES in the name is replaced by the size). Do
// not combine it with -test.cpuprofile: one CPU profile runs at a time.
var idleProfile = flag.String("scale.idleprofile", "", "write a CPU profile of the idle window to this file (NODES replaced by the size)")

// BenchmarkScaleGrowth is issue 20's growth table: the same 0 → N scale-up
// as BenchmarkScaleTo1000 on clusters of each size of -scale.nodes, with
// 30 pods per node. cmd/benchratio turns its lines into a table of growth
// (each size against the smallest). Run it with make bench-scale.
func BenchmarkScaleGrowth(b *testing.B) {
	if *scaleNodes == "" {
		b.Skip("set -scale.nodes (make bench-scale)")
	}
	for _, field := range strings.Split(*scaleNodes, ",") {
		nodes, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || nodes <= 0 {
			b.Fatalf("-scale.nodes: %q is not a node count", field)
		}
		b.Run(fmt.Sprintf("nodes=%d/kubeloop", nodes), func(b *testing.B) {
			benchmarkScale(b, nodes, int32(nodes*(*podsPerNode)), idleWindow)
		})
	}
}

// requestTimes summarises the apiserver's request latency histogram: for
// the five (verb, resource, subresource) series that took the most time in
// all, their count and mean. The growth run logs it, as the first place
// to look when a figure grows faster than the cluster.
// measureIdle is the CPU the whole process spends per node and second
// over window, in milliseconds, the cluster being idle; with
// -scale.idleprofile it also profiles that window.
func measureIdle(b *testing.B, nodes int, window time.Duration) float64 {
	if *idleProfile != "" {
		f, err := os.Create(strings.ReplaceAll(*idleProfile, "NODES", strconv.Itoa(nodes)))
		require.NoError(b, err)
		defer f.Close()
		require.NoError(b, pprof.StartCPUProfile(f))
		defer pprof.StopCPUProfile()
	}
	before := processCPU(b)
	time.Sleep(window) // a measuring window, not a wait for a condition
	idle := processCPU(b) - before
	return ms(idle) / float64(nodes) / window.Seconds()
}

// heapProfile, when set, is where the growth run writes a heap profile
// with every pod Running, before the cluster stops (NODES replaced by the
// size): what the memory figures are made of.
var heapProfile = flag.String("scale.heapprofile", "", "write a heap profile with every pod Running to this file (NODES replaced by the size)")

func writeHeapProfile(b *testing.B, nodes int) {
	if *heapProfile == "" {
		return
	}
	f, err := os.Create(strings.ReplaceAll(*heapProfile, "NODES", strconv.Itoa(nodes)))
	require.NoError(b, err)
	defer f.Close()
	require.NoError(b, pprof.Lookup("heap").WriteTo(f, 0))
	// The goroutines beside it, grouped by stack (debug=1): who holds the
	// stacks that stack-MiB counts.
	g, err := os.Create(strings.ReplaceAll(*heapProfile, "NODES", strconv.Itoa(nodes)) + ".goroutines.txt")
	require.NoError(b, err)
	defer g.Close()
	require.NoError(b, pprof.Lookup("goroutine").WriteTo(g, 1))
}

func requestTimes(b *testing.B, c *cluster.Cluster) string {
	body, err := c.Client.DoRaw(testCtx(b), "GET", "/metrics", nil, nil)
	require.NoError(b, err)
	type series struct {
		name       string
		sum, count float64
	}
	byName := map[string]*series{}
	for _, line := range strings.Split(string(body), "\n") {
		var isSum bool
		switch {
		case strings.HasPrefix(line, "apiserver_request_duration_seconds_sum{"):
			isSum = true
		case strings.HasPrefix(line, "apiserver_request_duration_seconds_count{"):
		default:
			continue
		}
		labels := line[strings.Index(line, "{") : strings.Index(line, "}")+1]
		s := byName[labels]
		if s == nil {
			s = &series{name: labels}
			byName[labels] = s
		}
		if isSum {
			s.sum = value(b, line)
		} else {
			s.count = value(b, line)
		}
	}
	var all []*series
	for _, s := range byName {
		all = append(all, s)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].sum > all[j].sum })
	var parts []string
	for _, s := range all[:min(5, len(all))] {
		parts = append(parts, fmt.Sprintf("%s %.0f× mean %.1f ms", s.name, s.count, 1000*s.sum/max(s.count, 1)))
	}
	return strings.Join(parts, "; ")
}
