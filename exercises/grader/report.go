package grader

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTable prints one row per result and a total, then, for each
// exercise that did not pass, which tests failed (or the compiler's first
// messages), and how to run them; verbose adds the failing tests' output.
func WriteTable(w io.Writer, results []Result, verbose bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "exercise\tvariant\tpassed\tscore\tresult\ttime\t\n")
	passed, total := 0, 0
	for _, r := range results {
		passed += r.Passed
		total += r.Total()
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%.0f%%\t%s\t%.1fs\t\n",
			r.Exercise.Dir, r.Variant, r.Passed, r.Total(), 100*r.Score(), r.Status(), r.Elapsed.Seconds())
	}
	share := 0.0
	if total > 0 {
		share = float64(passed) / float64(total)
	}
	fmt.Fprintf(tw, "total\t\t%d/%d\t%.0f%%\t\t\t\n", passed, total, 100*share)
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range results {
		if r.Status() == "pass" {
			continue
		}
		fmt.Fprintf(w, "\n%s (%s): %s\n", r.Exercise.Dir, r.Variant, r.Status())
		switch {
		case r.BuildFailed:
			fmt.Fprintf(w, "%s", indent(firstLines(r.BuildOutput, 12)))
		default:
			failed := r.Failed()
			fmt.Fprintf(w, "  not passing: %s\n", strings.Join(firstN(failed, 6), ", "))
			switch {
			case len(failed) == 0:
			case verbose:
				for _, t := range r.Tests {
					if t.Status != "pass" && t.Output != "" {
						fmt.Fprintf(w, "%s", indent(t.Output))
					}
				}
			case r.Variant.Bug != nil:
				fmt.Fprintf(w, "  see why:     go run ./exercises/grade -ex %s -bug %s -v\n", r.Exercise.Dir, r.Variant.Bug.Name)
			default:
				fmt.Fprintf(w, "  see why:     go test -tags %s -run '^%s$' ./exercises/%s/\n", r.Variant.Tags, failed[0], r.Exercise.Dir)
			}
		}
	}
	return nil
}

func firstN(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(s[:n:n], fmt.Sprintf("and %d more", len(s)-n))
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n") + "\n"
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ") + "\n"
}

// Report is the JSON form of a grading run, for autograders: one entry per
// exercise with every test's status, and the totals.
type Report struct {
	Exercises []ExerciseReport `json:"exercises"`
	Passed    int              `json:"passed"`
	Total     int              `json:"total"`
	Score     float64          `json:"score"`
}

// ExerciseReport is one exercise's entry in a Report.
type ExerciseReport struct {
	Exercise    string       `json:"exercise"`
	Number      int          `json:"number"`
	Variant     string       `json:"variant"`
	Status      string       `json:"status"`
	Passed      int          `json:"passed"`
	Total       int          `json:"total"`
	Score       float64      `json:"score"`
	Elapsed     float64      `json:"elapsed_s"`
	BuildOutput string       `json:"build_output,omitempty"`
	Tests       []TestResult `json:"tests"`
}

// NewReport sums results up.
func NewReport(results []Result) Report {
	rep := Report{Exercises: []ExerciseReport{}}
	for _, r := range results {
		build := ""
		if r.BuildFailed {
			build = r.BuildOutput
		}
		rep.Exercises = append(rep.Exercises, ExerciseReport{
			Exercise: r.Exercise.Dir, Number: r.Exercise.Number, Variant: r.Variant.String(),
			Status: r.Status(), Passed: r.Passed, Total: r.Total(), Score: r.Score(),
			Elapsed: r.Elapsed.Seconds(), BuildOutput: build, Tests: r.Tests,
		})
		rep.Passed += r.Passed
		rep.Total += r.Total()
	}
	if rep.Total > 0 {
		rep.Score = float64(rep.Passed) / float64(rep.Total)
	}
	return rep
}

// WriteJSON writes NewReport(results), indented.
func WriteJSON(w io.Writer, results []Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewReport(results))
}
