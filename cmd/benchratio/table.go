package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
)

// line is one evaluated row of the table, as printed and as written to
// bench/results/*.json.
type line struct {
	Figure    string   `json:"figure"`
	Benchmark string   `json:"benchmark"`
	Unit      string   `json:"unit"`
	Kubeloop  *float64 `json:"kubeloop"`
	RefName   string   `json:"referenceName,omitempty"`
	Reference *float64 `json:"reference,omitempty"`
	Ratio     *float64 `json:"ratio,omitempty"`
	Target    string   `json:"target"`
	// Met is nil when the row has no target or was not run.
	Met *bool `json:"met"`
}

// runs holds every benchmark line read, by base name and implementation.
// A benchmark run with -count N has N lines; the table shows their median.
type runs map[string]map[string][]result

func (rs runs) add(r result) {
	base, impl := splitImpl(r.name)
	if rs[base] == nil {
		rs[base] = map[string][]result{}
	}
	rs[base][impl] = append(rs[base][impl], r)
}

// median of one unit over the runs of base/impl; false when absent.
func (rs runs) median(base, impl, unit string) (float64, bool) {
	var vs []float64
	for _, r := range rs[base][impl] {
		if v, ok := r.metrics[unit]; ok {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return 0, false
	}
	slices.Sort(vs)
	if len(vs)%2 == 1 {
		return vs[len(vs)/2], true
	}
	return (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2, true
}

// evaluate turns the declared rows into lines. A pattern row expands to
// one line per matching benchmark that has both implementations; a row
// whose benchmark was not run is kept, empty, so a missing figure shows.
func evaluate(decl []row, rs runs) []line {
	var bases []string
	for b := range rs {
		bases = append(bases, b)
	}
	slices.Sort(bases)
	var out []line
	for _, r := range decl {
		matched := false
		for _, base := range bases {
			if ok, _ := path.Match(r.Bench, base); !ok {
				continue
			}
			if _, ok := rs.median(base, ours, r.Unit); !ok {
				continue
			}
			if r.Ref != "" && r.RefUnit == "" && len(rs[base][r.Ref]) == 0 {
				continue
			}
			matched = true
			out = append(out, evaluateOne(r, base, rs))
		}
		if !matched {
			out = append(out, line{Figure: r.Figure, Benchmark: r.Bench, Unit: r.Unit, RefName: r.Ref, Target: r.Target.String()})
		}
	}
	return out
}

func evaluateOne(r row, base string, rs runs) line {
	l := line{Figure: r.Figure, Benchmark: base, Unit: r.Unit, RefName: r.Ref, Target: r.Target.String()}
	if strings.ContainsAny(r.Bench, "*?[") {
		l.Figure += " (" + strings.TrimPrefix(base, "Benchmark") + ")"
	}
	k, _ := rs.median(base, ours, r.Unit)
	l.Kubeloop = &k
	ratio := 0.0
	if r.Ref != "" {
		refImpl, refUnit := r.Ref, r.Unit
		if r.RefUnit != "" {
			refImpl, refUnit = ours, r.RefUnit
		}
		if ref, ok := rs.median(base, refImpl, refUnit); ok {
			l.Reference = &ref
			if ref != 0 {
				ratio = k / ref
				l.Ratio = &ratio
			}
		}
	}
	if r.Target.set() && (!r.Target.OnRatio || l.Ratio != nil) {
		met := r.Target.met(k, ratio)
		l.Met = &met
	}
	return l
}

func verdict(l line) string {
	switch {
	case l.Kubeloop == nil:
		return "NOT RUN"
	case l.Met == nil:
		return ""
	case *l.Met:
		return "met"
	default:
		return "MISSED"
	}
}

func num(p *float64) string {
	if p == nil {
		return "—"
	}
	return human(*p)
}

func ratioText(p *float64) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f×", *p)
}

// printTable writes the table for a terminal.
func printTable(out io.Writer, lines []line, m machine) {
	fmt.Fprintf(out, "\n== kubeloop: figures and targets (%s) ==\n", m)
	fmt.Fprintf(out, "%-64s %-14s %12s %12s %-10s %8s %8s  %s\n", "figure", "unit", "kubeloop", "reference", "(ref)", "ratio", "target", "")
	missed := 0
	for _, l := range lines {
		v := verdict(l)
		if v == "MISSED" || v == "NOT RUN" {
			missed++
		}
		fmt.Fprintf(out, "%-64s %-14s %12s %12s %-10s %8s %8s  %s\n",
			l.Figure, l.Unit, num(l.Kubeloop), num(l.Reference), l.RefName, ratioText(l.Ratio), l.Target, v)
	}
	fmt.Fprintf(out, "%d rows, %d missed or not run. Ratios are kubeloop ÷ reference: for ns/op and ms lower is better, for /s higher.\n", len(lines), missed)
}

// writeMarkdown writes the same table as Markdown.
func writeMarkdown(out io.Writer, lines []line, m machine) {
	fmt.Fprintf(out, "# kubeloop benchmark table\n\nMachine: %s\n\n", m)
	fmt.Fprintln(out, "| figure | unit | kubeloop | reference | ratio | target | |")
	fmt.Fprintln(out, "|---|---|---:|---:|---:|---|---|")
	for _, l := range lines {
		ref := num(l.Reference)
		if l.RefName != "" {
			ref += " (" + l.RefName + ")"
		}
		fmt.Fprintf(out, "| %s | %s | %s | %s | %s | %s | %s |\n",
			l.Figure, l.Unit, num(l.Kubeloop), ref, ratioText(l.Ratio), l.Target, verdict(l))
	}
}

// writeJSON writes the lines and the machine as one JSON document.
func writeJSON(out io.Writer, lines []line, m machine) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Machine machine `json:"machine"`
		Rows    []line  `json:"rows"`
	}{m, lines})
}
