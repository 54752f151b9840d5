package grader

// Building many variants with few go commands. Skip on a first reading:
// Runner.Run, one go test per variant, is the plain path, and what make
// grade uses.
//
// Most of a grader run is building its test binary, and one go test per
// variant pays, every time, the go command's start (loading and hashing
// the packages of the whole module) and one link run on its own. The
// soundness proof runs more than seventy variants, so it groups them:
// a Batch is variants that one go test -c can build together, because
// they share their build tags and no two of them are the same package.
// The stubs are one batch, and the references with the planted bugs form
// a few more: the i-th bug of every exercise in one, since their patches
// touch different files and so fit in one overlay. Measured on the loaded
// two-core development machine (docs/exercises.md, "What it costs"): the
// whole proof in 240 s of CPU with one go test per variant, 204 s batched;
// the twelve references alone in 31.0 s of CPU in twelve go commands,
// 25.4 s in one. TestGradersAreSound logs its batches' times.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Batch is variants that one go test -c builds: the same tags, each
// exercise at most once.
type Batch struct {
	Tags string
	Jobs []Job
}

// Batches groups jobs into as few batches as their tags and exercises
// allow, keeping the jobs' order within each batch and ordering batches by
// their first job.
func Batches(jobs []Job) []Batch {
	var out []Batch
	for _, j := range jobs {
		placed := false
		for i := range out {
			if out[i].Tags == j.Variant.Tags && !out[i].has(j.Exercise.Dir) {
				out[i].Jobs = append(out[i].Jobs, j)
				placed = true
				break
			}
		}
		if !placed {
			out = append(out, Batch{Tags: j.Variant.Tags, Jobs: []Job{j}})
		}
	}
	return out
}

func (b Batch) has(dir string) bool {
	for _, j := range b.Jobs {
		if j.Exercise.Dir == dir {
			return true
		}
	}
	return false
}

// Built is one job after its batch was built: the test binary, or none if
// it did not build (Runner.RunBuilt then falls back to go test, which says
// why).
type Built struct {
	Job    Job
	Binary string
}

// Build builds the test binaries of a batch into dir with one go test -c.
// A variant that does not build has no Binary; an error means the go
// command could not be run at all or a planted bug does not apply.
func (rn Runner) Build(ctx context.Context, b Batch, dir string) ([]Built, error) {
	replace := map[string]string{}
	var pkgs []string
	for _, j := range b.Jobs {
		pkgs = append(pkgs, "./exercises/"+j.Exercise.Dir+"/")
		if j.Variant.Bug == nil {
			continue
		}
		bugDir := filepath.Join(dir, "bugs", j.Exercise.Dir)
		if err := os.MkdirAll(bugDir, 0o755); err != nil {
			return nil, err
		}
		files, err := j.Variant.Bug.patchFiles(rn.ModuleRoot, bugDir)
		if err != nil {
			return nil, err
		}
		for orig, tmp := range files {
			replace[orig] = tmp
		}
	}
	binDir := filepath.Join(dir, "bin")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		return nil, err
	}
	args := []string{"test", "-c", "-o", binDir + string(filepath.Separator), "-tags=" + b.Tags, "-vet=off"}
	if rn.LDFlags != "" {
		args = append(args, "-ldflags="+rn.LDFlags)
	}
	if len(replace) > 0 {
		overlay, err := writeOverlay(dir, replace)
		if err != nil {
			return nil, err
		}
		args = append(args, "-overlay="+overlay)
	}
	cmd := exec.CommandContext(ctx, rn.Go, append(args, pkgs...)...)
	cmd.Dir = rn.ModuleRoot
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	var exit *exec.ExitError
	if err := cmd.Run(); err != nil && !errors.As(err, &exit) {
		return nil, fmt.Errorf("go test -c: %w", err)
	}
	// A package that failed to build has no binary; the others do, since
	// the go command builds what it can.
	built := make([]Built, len(b.Jobs))
	for i, j := range b.Jobs {
		built[i].Job = j
		if p := filepath.Join(binDir, j.Exercise.Dir+".test"); isFile(p) {
			built[i].Binary = p
		}
	}
	return built, nil
}

// RunBuilt runs a built grader as go test -json would: in the exercise's
// directory, through go tool test2json, with the runner's -run pattern
// and timeout. A job without a binary is run with Run instead, so a build
// failure is reported with the compiler's messages.
func (rn Runner) RunBuilt(ctx context.Context, b Built) (Result, error) {
	if b.Binary == "" {
		return rn.Run(ctx, b.Job.Exercise, b.Job.Variant)
	}
	res := Result{Exercise: b.Job.Exercise, Variant: b.Job.Variant}
	timeout := rn.Timeout
	if timeout == 0 {
		timeout = 3 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout+time.Minute)
	defer cancel()
	args := []string{"-t", "-p", "kubeloop/exercises/" + b.Job.Exercise.Dir, b.Binary,
		"-test.v=test2json", "-test.paniconexit0", "-test.timeout=" + timeout.String()}
	if rn.RunPattern != "" {
		args = append(args, "-test.run="+rn.RunPattern)
	}
	// test2json is what go test -json runs the binary through; a built
	// one saves a go command per run.
	cmd := exec.CommandContext(ctx, rn.Go, append([]string{"tool", "test2json"}, args...)...)
	if rn.Test2JSON != "" {
		cmd = exec.CommandContext(ctx, rn.Test2JSON, args...)
	}
	cmd.Dir = filepath.Join(rn.ModuleRoot, "exercises", b.Job.Exercise.Dir)
	if _, err := runJSON(cmd, &res); err != nil {
		return res, fmt.Errorf("%s: %w", b.Binary, err)
	}
	return res, nil
}

// BuildTest2JSON builds go's test2json into dir (the toolchain does not
// ship it built) and returns its path, for Runner.Test2JSON.
func (rn Runner) BuildTest2JSON(ctx context.Context, dir string) (string, error) {
	p := filepath.Join(dir, "test2json")
	out, err := exec.CommandContext(ctx, rn.Go, "build", "-o", p, "cmd/test2json").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build cmd/test2json: %w\n%s", err, out)
	}
	return p, nil
}
