package grader

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Variant is the code a grader runs against: the student's file (build tag
// "exercise"), the reference ("solution"), or the reference with a planted
// bug applied.
type Variant struct {
	Tags string
	Bug  *Bug
}

// Stub is the student's code (or the stub it starts as).
func Stub() Variant { return Variant{Tags: "exercise"} }

// Reference is the reference solution.
func Reference() Variant { return Variant{Tags: "solution"} }

// WithBug is the reference with a planted bug applied.
func WithBug(b Bug) Variant { return Variant{Tags: "solution", Bug: &b} }

func (v Variant) String() string {
	switch {
	case v.Bug != nil:
		return "bug:" + v.Bug.Name
	case v.Tags == "exercise":
		return "stub"
	case v.Tags == "solution":
		return "reference"
	default:
		return "tags:" + v.Tags
	}
}

// Runner runs graders with one go command in one module.
type Runner struct {
	// Go is the go command; GoCommand finds the one running this program.
	Go string
	// ModuleRoot is the directory holding go.mod; the exercises are
	// ModuleRoot/exercises/NN-name.
	ModuleRoot string
	// Timeout is go test's -timeout for one grader (default 3 minutes).
	Timeout time.Duration
	// Race adds -race.
	Race bool
	// NoVet passes -vet=off, for callers that vet the packages once
	// themselves.
	NoVet bool
	// RunPattern, if set, is go test's -run pattern.
	RunPattern string
	// LDFlags, if set, is go test's -ldflags: "-s -w" links faster,
	// without the symbol table and DWARF that only a debugger needs.
	LDFlags string
	// Test2JSON, if set, is a built test2json (BuildTest2JSON) that
	// RunBuilt uses instead of go tool test2json.
	Test2JSON string
}

// GoCommand returns the go command of the toolchain that built this
// program, so graders build exactly as the caller did; "go" on PATH
// otherwise.
func GoCommand() (string, error) {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); isFile(p) {
		return p, nil
	}
	return exec.LookPath("go")
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// ModuleRoot walks up from dir to the directory that holds go.mod.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if isFile(filepath.Join(dir, "go.mod")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the current directory")
		}
		dir = parent
	}
}

// TestResult is the outcome of one top-level test.
type TestResult struct {
	Name string `json:"name"`
	// Status is "pass", "fail", "skip", or "not run" (the binary did not
	// build, crashed or timed out before reaching it).
	Status  string  `json:"status"`
	Elapsed float64 `json:"elapsed_s"`
	// Output is the test's own output (its log and failure messages).
	Output string `json:"-"`
}

// Result is one grader run.
type Result struct {
	Exercise Exercise
	Variant  Variant
	// Tests holds every test the grader declares, in order.
	Tests []TestResult
	// Passed counts the tests that passed; a skipped test counts as not
	// passed, so skipping cannot raise a score.
	Passed int
	// BuildFailed: the package or its tests did not compile; BuildOutput
	// has the compiler's messages.
	BuildFailed bool
	BuildOutput string
	// Panicked: the test binary crashed (a panic, or go test's timeout,
	// which TimedOut marks).
	Panicked bool
	TimedOut bool
	// ExitCode is go test's.
	ExitCode int
	// Output is the whole text output, for messages.
	Output  string
	Elapsed time.Duration
}

// ran reports whether any test started.
func (r Result) ran() bool {
	for _, t := range r.Tests {
		if t.Status != "not run" {
			return true
		}
	}
	return false
}

// Total is the number of tests the grader declares.
func (r Result) Total() int { return len(r.Tests) }

// Score is the share of tests passed, between 0 and 1.
func (r Result) Score() float64 {
	if len(r.Tests) == 0 {
		return 0
	}
	return float64(r.Passed) / float64(len(r.Tests))
}

// Failed lists the tests that did not pass.
func (r Result) Failed() []string {
	var out []string
	for _, t := range r.Tests {
		if t.Status != "pass" {
			out = append(out, t.Name)
		}
	}
	return out
}

// Status sums a run up in one word: pass, fail, build failed, crashed or
// timed out.
func (r Result) Status() string {
	switch {
	case r.BuildFailed:
		return "build failed"
	case r.TimedOut:
		return "timed out"
	case r.Panicked:
		return "crashed"
	case r.Passed == len(r.Tests) && r.ExitCode == 0:
		return "pass"
	default:
		return "fail"
	}
}

// Args are the go test arguments of a run, after "go".
func (rn Runner) Args(ex Exercise, v Variant, overlay string) []string {
	timeout := rn.Timeout
	if timeout == 0 {
		timeout = 3 * time.Minute
	}
	args := []string{"test", "-json", "-count=1", "-timeout=" + timeout.String(), "-tags=" + v.Tags}
	if rn.Race {
		args = append(args, "-race")
	}
	if rn.NoVet {
		args = append(args, "-vet=off")
	}
	if rn.LDFlags != "" {
		args = append(args, "-ldflags="+rn.LDFlags)
	}
	if rn.RunPattern != "" {
		args = append(args, "-run="+rn.RunPattern)
	}
	if overlay != "" {
		args = append(args, "-overlay="+overlay)
	}
	return append(args, "./exercises/"+ex.Dir+"/")
}

// Run grades one exercise against one variant. An error means the grader
// could not be run at all (no go command, a patch that does not apply);
// a grader that fails or does not build is a Result.
func (rn Runner) Run(ctx context.Context, ex Exercise, v Variant) (Result, error) {
	res := Result{Exercise: ex, Variant: v}
	overlay := ""
	if v.Bug != nil {
		dir, err := os.MkdirTemp("", "kubeloop-bug-")
		if err != nil {
			return res, err
		}
		defer os.RemoveAll(dir)
		if overlay, err = v.Bug.Overlay(rn.ModuleRoot, dir); err != nil {
			return res, err
		}
	}
	timeout := rn.Timeout
	if timeout == 0 {
		timeout = 3 * time.Minute
	}
	// Building may take a while on a busy machine; go test's own timeout
	// covers the tests, this one a go command that never returns.
	ctx, cancel := context.WithTimeout(ctx, timeout+5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, rn.Go, rn.Args(ex, v, overlay)...)
	cmd.Dir = rn.ModuleRoot
	stderr, err := runJSON(cmd, &res)
	if err != nil {
		return res, fmt.Errorf("go test ./exercises/%s/: %w", ex.Dir, err)
	}
	if stderr != "" && res.BuildOutput == "" && res.ExitCode != 0 && !res.ran() {
		// go itself complained (a bad flag, a broken go.mod): say so.
		res.BuildOutput = stderr
	}
	return res, nil
}

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action     string
	Test       string
	Output     string
	Elapsed    float64
	ImportPath string
}

// runJSON runs cmd, which prints go test -json events, into res: its
// time, exit code, tests and output (stderr appended, and returned). A
// test failure is an exit code, not an error; err is a command that could
// not run at all.
func runJSON(cmd *exec.Cmd, res *Result) (stderr string, err error) {
	var stdout, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &errOut
	start := time.Now()
	err = cmd.Run()
	res.Elapsed = time.Since(start)
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		res.ExitCode = exit.ExitCode()
	default:
		return "", err
	}
	parseEvents(res, stdout.Bytes())
	res.Output += errOut.String()
	return errOut.String(), nil
}

// parseEvents fills res from go test -json output. Tests are matched to
// the declared ones; a test that ran but is not declared (a table test's
// subtests are not top level and are folded into their parent) is
// appended, so nothing that ran is hidden.
func parseEvents(res *Result, out []byte) {
	byName := map[string]*TestResult{}
	for _, name := range res.Exercise.Tests {
		res.Tests = append(res.Tests, TestResult{Name: name, Status: "not run"})
	}
	for i := range res.Tests {
		byName[res.Tests[i].Name] = &res.Tests[i]
	}
	var text strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			text.WriteString(sc.Text() + "\n")
			continue
		}
		switch ev.Action {
		case "build-output":
			res.BuildOutput += ev.Output
			continue
		case "build-fail":
			res.BuildFailed = true
			continue
		}
		if ev.Action == "output" {
			text.WriteString(ev.Output)
			if strings.HasPrefix(ev.Output, "panic: ") {
				res.Panicked = true
				if strings.HasPrefix(ev.Output, "panic: test timed out") {
					res.TimedOut = true
				}
			}
			if strings.Contains(ev.Output, "[build failed]") || strings.Contains(ev.Output, "[setup failed]") {
				res.BuildFailed = true
			}
		}
		if ev.Test == "" {
			continue
		}
		top, _, _ := strings.Cut(ev.Test, "/")
		tr := byName[top]
		if tr == nil {
			res.Tests = append(res.Tests, TestResult{Name: top, Status: "not run"})
			tr = &res.Tests[len(res.Tests)-1]
			// Appending may move the array: rebuild the index.
			for i := range res.Tests {
				byName[res.Tests[i].Name] = &res.Tests[i]
			}
		}
		switch ev.Action {
		case "output":
			tr.Output += ev.Output
		case "pass", "fail", "skip":
			if ev.Test == top {
				tr.Status, tr.Elapsed = ev.Action, ev.Elapsed
			}
		}
	}
	res.Output = text.String()
	for _, t := range res.Tests {
		if t.Status == "pass" {
			res.Passed++
		}
	}
}

// Job is one grader run: an exercise and the code to grade it against.
type Job struct {
	Exercise Exercise
	Variant  Variant
}

// RunAll runs the jobs, at most parallel at a time (at least one), and
// returns their results and errors in the order of jobs. done, if not nil,
// is called as each job finishes (from its own goroutine).
func (rn Runner) RunAll(ctx context.Context, jobs []Job, parallel int, done func(Result, error)) ([]Result, []error) {
	results := make([]Result, len(jobs))
	errs := make([]error, len(jobs))
	slots := make(chan struct{}, max(parallel, 1))
	finished := make(chan struct{})
	for i, j := range jobs {
		go func() {
			defer func() { finished <- struct{}{} }()
			slots <- struct{}{}
			defer func() { <-slots }()
			results[i], errs[i] = rn.Run(ctx, j.Exercise, j.Variant)
			if done != nil {
				done(results[i], errs[i])
			}
		}()
	}
	for range jobs {
		<-finished
	}
	return results, errs
}
