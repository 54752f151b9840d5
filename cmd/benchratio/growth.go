package main

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The growth table of `make bench-scale` (issue 20): the lines of
// BenchmarkScaleGrowth/nodes=N, one column per cluster size, each figure
// also as a multiple of the smallest cluster's, and issue 20's targets at
// the largest size.

// growthFigures are the metrics shown, in order, with the target at the
// largest cluster: on the value, or (relative) on the multiple of the
// smallest cluster's value.
var growthFigures = []struct {
	unit     string
	target   target
	relative bool
}{
	{unit: "cluster-ready-s"},
	{unit: "idle-cpu-ms/node-s"},
	{unit: "total-s"},
	{unit: "startup-p50-ms"},
	{unit: "startup-p99-ms", target: valueAtMost(5000)}, // Kubernetes' SLO
	{unit: "sched-pods/s"},
	{unit: "cpu-ms/pod", target: valueAtMost(1.5), relative: true},
	{unit: "rss-MiB", target: valueAtMost(2048)},
	{unit: "rss-peak-MiB"},
	{unit: "rss-after-list-MiB"}, // after the benchmark's own LIST, decoded in this process
	{unit: "heap-MiB"},
	{unit: "live-heap-MiB"},
	{unit: "stack-MiB"},
	{unit: "list-ms"},
	{unit: "requests/pod"},
	{unit: "watchers-closed"},
	{unit: "429s"}, // requests refused by the in-flight limit
}

var growthName = regexp.MustCompile(`^BenchmarkScaleGrowth/nodes=(\d+)$`)

// growthColumns returns the cluster sizes run, smallest first, with their
// benchmark base names.
func growthColumns(rs runs) (sizes []int, bases map[int]string) {
	bases = map[int]string{}
	for base := range rs {
		m := growthName.FindStringSubmatch(base)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		sizes = append(sizes, n)
		bases[n] = base
	}
	slices.Sort(sizes)
	return sizes, bases
}

// printGrowth writes the growth table; it writes nothing when no growth
// benchmark was run.
func printGrowth(out io.Writer, rs runs) {
	sizes, bases := growthColumns(rs)
	if len(sizes) == 0 {
		return
	}
	fmt.Fprintf(out, "\n== scale: growth with the cluster (30 pods per node) ==\n%-18s", "figure")
	for _, n := range sizes {
		fmt.Fprintf(out, " %12s", fmt.Sprintf("%d nodes", n))
	}
	last := sizes[len(sizes)-1]
	fmt.Fprintf(out, " %10s %10s\n", fmt.Sprintf("%d÷%d", last, sizes[0]), "target")
	for _, f := range growthFigures {
		fmt.Fprintf(out, "%-18s", f.unit)
		var first, final float64
		var haveFirst, haveFinal bool
		for _, n := range sizes {
			v, ok := rs.median(bases[n], ours, f.unit)
			if !ok {
				fmt.Fprintf(out, " %12s", "—")
				continue
			}
			if n == sizes[0] {
				first, haveFirst = v, true
			}
			if n == last {
				final, haveFinal = v, true
			}
			fmt.Fprintf(out, " %12s", human(v))
		}
		growth := "—"
		if haveFirst && haveFinal && first != 0 {
			growth = fmt.Sprintf("%.2f×", final/first)
		}
		verdictText := ""
		if f.target.set() {
			t := f.target.String()
			if f.relative {
				t += "×"
			}
			switch {
			case !haveFinal || (f.relative && !haveFirst):
				verdictText = t + " NOT RUN"
			case f.relative && first != 0:
				verdictText = t + " " + metText(f.target.met(final/first, 0))
			default:
				verdictText = t + " " + metText(f.target.met(final, 0))
			}
		}
		fmt.Fprintf(out, " %10s %s\n", growth, strings.TrimSpace(verdictText))
	}
	fmt.Fprintf(out, "targets apply at %d nodes; a run that left pods not Running fails instead of printing a line.\n", last)
}

func metText(met bool) string {
	if met {
		return "met"
	}
	return "MISSED"
}
