// Command benchratio reads `go test -bench` output and prints, for every
// benchmark that was run both on kubeloop and on a reference implementation
// in the same process, the two results side by side and their ratio.
//
// Pairing is by name: the last element of a sub-benchmark name is the
// implementation. "BenchmarkCreate/c=64/kubeloop" pairs with
// "BenchmarkCreate/c=64/etcd" (or ".../client-go"). Benchmarks without a pair
// are listed with their metrics, so latency percentiles and memory reports
// show up too.
//
// Before that list it prints the table of issue 20 (rows.go): each figure,
// kubeloop's value, the reference's, the ratio, the target and whether it
// was met. A missed target is printed as MISSED; the command still exits 0,
// since a slow machine is not a broken build.
//
// Usage: go test -run '^$' -bench . ./... | go run ./cmd/benchratio [-results bench/results]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

const ours = "kubeloop"

// result is one benchmark line: its metrics by unit ("ns/op", "objects/s", ...).
type result struct {
	name    string
	metrics map[string]float64
	units   []string // in the order printed
}

// gomaxprocsSuffix is the "-8" go test appends to names.
var gomaxprocsSuffix = regexp.MustCompile(`-\d+$`)

func parseLine(line string) (result, bool) {
	fields := strings.Fields(line)
	if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
		return result{}, false
	}
	r := result{name: gomaxprocsSuffix.ReplaceAllString(fields[0], ""), metrics: map[string]float64{}}
	// fields[1] is the iteration count; then value/unit pairs.
	for i := 2; i+1 < len(fields); i += 2 {
		v, err := strconv.ParseFloat(fields[i], 64)
		if err != nil {
			continue
		}
		unit := fields[i+1]
		if _, seen := r.metrics[unit]; !seen {
			r.units = append(r.units, unit)
		}
		r.metrics[unit] = v
	}
	return r, true
}

// splitImpl returns the benchmark name without its implementation element.
func splitImpl(name string) (base, impl string) {
	i := strings.LastIndex(name, "/")
	if i < 0 {
		return name, ""
	}
	return name[:i], name[i+1:]
}

// higherIsBetter says which way a unit points. The printed ratio is always
// kubeloop ÷ reference; the note beside it says which direction is good.
func higherIsBetter(unit string) bool {
	return strings.HasSuffix(unit, "/s")
}

// run reads go test output from in, prints the table and then every
// paired benchmark to out, and, when resultsDir is set, writes the table
// there as bench.json and bench.md.
func run(in io.Reader, out io.Writer, resultsDir string) error {
	byBase := map[string]map[string]result{}
	rs := runs{}
	var order []string
	var m machine
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1024*1024), 1024*1024)
	for sc.Scan() {
		if cpu, ok := strings.CutPrefix(sc.Text(), "cpu: "); ok {
			m.CPU = cpu
		}
		r, ok := parseLine(sc.Text())
		if !ok {
			continue
		}
		rs.add(r)
		base, impl := splitImpl(r.name)
		if byBase[base] == nil {
			byBase[base] = map[string]result{}
			order = append(order, base)
		}
		byBase[base][impl] = r
	}
	if err := sc.Err(); err != nil {
		return err
	}
	m.fill()
	lines := evaluate(rows, rs)
	// A run of the growth benchmark alone (make bench-scale) has none of
	// the table's rows: print only its own table then.
	if slices.ContainsFunc(lines, func(l line) bool { return l.Kubeloop != nil }) {
		printTable(out, lines, m)
	}
	printGrowth(out, rs)
	if resultsDir != "" {
		if err := writeResults(resultsDir, lines, m); err != nil {
			return err
		}
		fmt.Fprintf(out, "written: %s\n", filepath.Join(resultsDir, "bench.{json,md}"))
	}

	fmt.Fprintln(out, "\n== every paired benchmark: kubeloop vs reference (same process) ==")
	fmt.Fprintf(out, "%-60s %-10s %14s %14s %8s\n", "benchmark", "reference", "kubeloop", "reference", "ratio")
	var unpaired []result
	for _, base := range order {
		impls := byBase[base]
		k, haveOurs := impls[ours]
		var refNames []string
		for impl := range impls {
			if impl != ours {
				refNames = append(refNames, impl)
			}
		}
		sort.Strings(refNames)
		if !haveOurs || len(refNames) == 0 {
			for _, r := range impls {
				unpaired = append(unpaired, r)
			}
			continue
		}
		for _, refName := range refNames {
			ref := impls[refName]
			for _, unit := range k.units {
				rv, ok := ref.metrics[unit]
				if !ok || rv == 0 || unit == "B/op" || unit == "allocs/op" {
					continue
				}
				ratio := k.metrics[unit] / rv
				dir := "lower is better"
				if higherIsBetter(unit) {
					dir = "higher is better"
				}
				fmt.Fprintf(out, "%-60s %-10s %14s %14s %7.2fx  (%s, %s)\n",
					base, refName, human(k.metrics[unit]), human(rv), ratio, unit, dir)
			}
		}
	}
	if len(unpaired) > 0 {
		fmt.Fprintln(out, "\n== other benchmarks ==")
		for _, r := range unpaired {
			var parts []string
			for _, u := range r.units {
				parts = append(parts, fmt.Sprintf("%s %s", human(r.metrics[u]), u))
			}
			fmt.Fprintf(out, "%-60s %s\n", r.name, strings.Join(parts, "  "))
		}
	}
	return nil
}

func human(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
}

func main() {
	resultsDir := flag.String("results", "", "directory to write bench.json and bench.md into (created if missing)")
	flag.Parse()
	if err := run(os.Stdin, os.Stdout, *resultsDir); err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(1)
	}
}
