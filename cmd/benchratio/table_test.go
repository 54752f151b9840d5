package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const sample = `cpu: Test CPU
BenchmarkCreate/c=64/kubeloop-2     	    2000	    110000 ns/op	   8000 objects/s	  10000 etcd-objects/s
BenchmarkCreate/c=64/kubeloop-2     	    2000	    110000 ns/op	   9500 objects/s	  10000 etcd-objects/s
BenchmarkCreate/c=64/kubeloop-2     	    2000	    110000 ns/op	   9400 objects/s	  11000 etcd-objects/s
BenchmarkDeltaFIFOAddPop/kubeloop-2 	 1000	     300 ns/op
BenchmarkDeltaFIFOAddPop/client-go-2	 1000	    1000 ns/op
BenchmarkQueueAddGetDone/workers=1/unique/kubeloop-2 	 1000	 90 ns/op
BenchmarkQueueAddGetDone/workers=1/unique/client-go-2	 1000	100 ns/op
BenchmarkQueueAddGetDone/workers=4/hot100/kubeloop-2 	 1000	200 ns/op
BenchmarkQueueAddGetDone/workers=4/hot100/client-go-2	 1000	100 ns/op
BenchmarkCacheMemory10kPods/kubeloop-2	1	5 ns/op	2100 B/object
`

func lineFor(t *testing.T, lines []line, figure string) line {
	t.Helper()
	for _, l := range lines {
		if l.Figure == figure {
			return l
		}
	}
	require.Failf(t, "no row", "%q in %+v", figure, lines)
	return line{}
}

func TestTableMedianOfRunsAgainstRatioTarget(t *testing.T) {
	rs := runs{}
	for _, s := range strings.Split(sample, "\n") {
		if r, ok := parseLine(s); ok {
			rs.add(r)
		}
	}
	lines := evaluate(rows, rs)
	l := lineFor(t, lines, "store create, c=64")
	require.InDelta(t, 9400, *l.Kubeloop, 0.001, "median of 8000, 9400, 9500")
	require.InDelta(t, 0.94, *l.Ratio, 0.0001)
	require.True(t, *l.Met)
	require.Equal(t, "met", verdict(l))

	require.Equal(t, "met", verdict(lineFor(t, lines, "DeltaFIFO Add/Pop")))
	require.Equal(t, "met", verdict(lineFor(t, lines, "workqueue Add/Get/Done (QueueAddGetDone/workers=1/unique)")))
	require.Equal(t, "MISSED", verdict(lineFor(t, lines, "workqueue Add/Get/Done (QueueAddGetDone/workers=4/hot100)")))
	require.Equal(t, "met", verdict(lineFor(t, lines, "watch cache heap per cached pod")), "an absolute target")
	notRun := lineFor(t, lines, "informer initial sync, 10k pods")
	require.Nil(t, notRun.Kubeloop)
	require.Equal(t, "NOT RUN", verdict(notRun))
	require.Equal(t, "", verdict(line{Kubeloop: new(float64)}), "no target: no verdict")
}

func TestRunWritesJSONAndMarkdown(t *testing.T) {
	dir := t.TempDir()
	var out strings.Builder
	require.NoError(t, run(strings.NewReader(sample), &out, filepath.Join(dir, "results")))
	require.Regexp(t, `store create, c=64\s+objects/s\s+9400\s+10000\s+etcd\s+0\.94×\s+≥ 0\.9×\s+met`, out.String())
	require.Contains(t, out.String(), "MISSED")
	require.Contains(t, out.String(), "Test CPU")

	var doc struct {
		Machine machine `json:"machine"`
		Rows    []line  `json:"rows"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "results", "bench.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &doc))
	require.Equal(t, "Test CPU", doc.Machine.CPU)
	require.Equal(t, "store create, c=64", lineFor(t, doc.Rows, "store create, c=64").Figure)

	md, err := os.ReadFile(filepath.Join(dir, "results", "bench.md"))
	require.NoError(t, err)
	require.Contains(t, string(md), "| store create, c=64 | objects/s | 9400 | 10000 (etcd) | 0.94× | ≥ 0.9× | met |")
}

func TestGrowthTableComparesLargestWithSmallest(t *testing.T) {
	in := `BenchmarkScaleGrowth/nodes=20/kubeloop-2 1 5 ns/op 400 startup-p99-ms 3.0 cpu-ms/pod 300 rss-MiB
BenchmarkScaleGrowth/nodes=1000/kubeloop-2 1 5 ns/op 6000 startup-p99-ms 4.0 cpu-ms/pod 1900 rss-MiB
BenchmarkScaleGrowth/nodes=200/kubeloop-2 1 5 ns/op 900 startup-p99-ms 3.3 cpu-ms/pod 900 rss-MiB
`
	var out strings.Builder
	require.NoError(t, run(strings.NewReader(in), &out, ""))
	s := out.String()
	require.Regexp(t, `figure\s+20 nodes\s+200 nodes\s+1000 nodes\s+1000÷20`, s, "columns smallest first")
	require.Regexp(t, `startup-p99-ms\s+400\s+900\s+6000\s+15\.00×\s+≤ 5000 MISSED`, s)
	require.Regexp(t, `cpu-ms/pod\s+3\.00\s+3\.30\s+4\.00\s+1\.33×\s+≤ 1\.5× met`, s)
	require.Regexp(t, `rss-MiB\s+300\s+900\s+1900\s+6\.33×\s+≤ 2048 met`, s)
	require.Regexp(t, `list-ms\s+—\s+—\s+—\s+—`, s)
}

// Configurations measured interleaved in one benchmark are two units of
// kubeloop's line; a row with RefUnit compares them.
func TestRowAgainstAnotherUnitOfTheSameLine(t *testing.T) {
	rs := runs{}
	for _, s := range []string{
		"BenchmarkCreateConfigMapsAuth/json/c=64/kubeloop-2  3000  900000 ns/op  920 objects/s  990 authn-objects/s  1000 noauth-objects/s  2000 etcd-objects/s  40 create-p99-ms",
	} {
		r, ok := parseLine(s)
		require.True(t, ok)
		rs.add(r)
	}
	lines := evaluate(rows, rs)
	l := lineFor(t, lines, "apiserver create HTTPS, authn+RBAC vs none, c=64")
	require.InDelta(t, 920, *l.Kubeloop, 0.001)
	require.InDelta(t, 1000, *l.Reference, 0.001)
	require.InDelta(t, 0.92, *l.Ratio, 0.0001)
	require.Equal(t, "noauth", l.RefName)
	require.Equal(t, "met", verdict(l))
	require.InDelta(t, 0.99, *lineFor(t, lines, "apiserver create HTTPS, authn only vs none, c=64").Ratio, 0.0001)
	require.InDelta(t, 0.46, *lineFor(t, lines, "apiserver create HTTPS, authn+RBAC vs etcd, c=64").Ratio, 0.0001)
}
