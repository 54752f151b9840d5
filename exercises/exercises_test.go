package exercises_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/exercises/grader"
)

// soundness turns on TestGradersAreSound, which builds and runs every
// grader about forty times. make test-exercises passes it; the plain
// go test ./... of make test-main checks only the layout.
var soundness = flag.Bool("soundness", false, "run every grader against its stub, its reference and its planted bugs")

// soundnessOnly narrows the proof to some exercises while one is being
// written: -args -soundness -soundness.only=5.
var soundnessOnly = flag.String("soundness.only", "", "with -soundness: only these exercises (as make grade EX=)")

// soundnessBugs caps the planted bugs proven per exercise (0: every one).
// make test proves two, the minimum, to keep CI under 15 minutes
// on two cores; make test-exercises-all proves them all.
var soundnessBugs = flag.Int("soundness.bugs", 0, "with -soundness: at most this many planted bugs per exercise, in name order (0: all)")

// Two graders run at a time, beside the go command building the next
// batch: the machine may have two cores, and most graders start a cluster.
// Building (linking a test binary with etcd and the apiserver) is what
// costs; running mostly waits.
const soundnessParallel = 2

// The build tags an exercise's files carry.
const (
	stubTag   = "//go:build !solution"
	refTag    = "//go:build solution"
	graderTag = "//go:build exercise || solution"
)

func exercises(t *testing.T) []grader.Exercise {
	t.Helper()
	exs, err := grader.Discover(".")
	require.NoError(t, err)
	return exs
}

// studentCopy reports whether the references were taken out (export.sh):
// then there is nothing to prove sound, only the layout to check.
func studentCopy(t *testing.T) bool {
	t.Helper()
	refs, err := filepath.Glob("*/*_solution.go")
	require.NoError(t, err)
	return len(refs) == 0
}

// The promise every exercise makes, checked the way a student and an
// instructor meet it:
//
//   - with the reference (-tags solution) every test of the grader passes;
//   - with the stub (-tags exercise) it compiles, and every test fails
//     with a test failure, not a build error or a crash: a student starts
//     at zero, and each test passed is earned;
//   - with each planted bug applied to the reference, the tests its patch
//     names under "Caught by:" fail (run alone, with -run), again as test
//     failures: a grader that let a typical mistake through would be
//     grading nothing.
//
// go vet must be clean under both tags too, because the repository's plain
// go vet ./... sees neither the graders nor the references. The graders run
// without -race here (a student adds it; the cluster graders under -race
// would double the time).
func TestGradersAreSound(t *testing.T) {
	if !*soundness {
		t.Skip("run with -args -soundness (make test-exercises): builds and runs every grader against its stub, reference and planted bugs")
	}
	if studentCopy(t) {
		t.Skip("a student copy (export.sh) has no references to prove the graders against")
	}
	root, err := grader.ModuleRoot(".")
	require.NoError(t, err)
	goBin, err := grader.GoCommand()
	require.NoError(t, err)
	start := time.Now()
	for _, tags := range []string{"solution", "exercise"} {
		vet := exec.Command(goBin, "vet", "-tags", tags, "./exercises/...")
		vet.Dir = root
		out, err := vet.CombinedOutput()
		require.NoError(t, err, "go vet -tags %s ./exercises/...:\n%s", tags, out)
	}
	t.Logf("go vet under both tags: %.1fs", time.Since(start).Seconds())

	exs, err := grader.Select(exercises(t), *soundnessOnly)
	require.NoError(t, err)
	var jobs []grader.Job
	for _, ex := range exs {
		jobs = append(jobs, grader.Job{Exercise: ex, Variant: grader.Reference()}, grader.Job{Exercise: ex, Variant: grader.Stub()})
		bugs := ex.Bugs
		if *soundnessBugs > 0 && len(bugs) > *soundnessBugs {
			bugs = bugs[:*soundnessBugs]
		}
		for _, b := range bugs {
			jobs = append(jobs, grader.Job{Exercise: ex, Variant: grader.WithBug(b)})
		}
	}
	// The whole proof must end before go test's own -timeout does, or a
	// slow machine sees a panic instead of the runs that did not finish.
	deadline := time.Now().Add(12 * time.Minute)
	if d, ok := t.Deadline(); ok {
		deadline = d.Add(-30 * time.Second)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	results, errs := proveAll(ctx, t, goBin, root, jobs)

	var timing []string
	for i, j := range jobs {
		res := results[i]
		timing = append(timing, fmt.Sprintf("%5.1fs %s/%s", res.Elapsed.Seconds(), j.Exercise.Dir, j.Variant))
		t.Run(j.Exercise.Dir+"/"+j.Variant.String(), func(t *testing.T) {
			require.NoError(t, errs[i])
			checkResult(t, res)
		})
	}
	sort.Sort(sort.Reverse(sort.StringSlice(timing)))
	t.Logf("%d grader runs in %.1fs, slowest first:\n%s", len(jobs), time.Since(start).Seconds(), strings.Join(timing, "\n"))
}

// proveAll builds the variants in batches (grader.Batches: a handful of
// go commands instead of one per variant) and runs each built grader as
// soon as its batch is linked, soundnessParallel at a time, while the next
// batch builds: the links use the CPU, the graders mostly wait on their
// clusters.
func proveAll(ctx context.Context, t *testing.T, goBin, root string, jobs []grader.Job) ([]grader.Result, []error) {
	base := grader.Runner{Go: goBin, ModuleRoot: root, NoVet: true, Timeout: 2 * time.Minute, LDFlags: "-s -w"}
	var err error
	base.Test2JSON, err = base.BuildTest2JSON(ctx, t.TempDir())
	require.NoError(t, err)
	type built struct {
		i int
		b grader.Built
	}
	results := make([]grader.Result, len(jobs))
	errs := make([]error, len(jobs))
	ready := make(chan built)
	go func() {
		defer close(ready)
		for _, batch := range grader.Batches(jobs) {
			start := time.Now()
			bs, err := base.Build(ctx, batch, t.TempDir())
			t.Logf("built %d %s variants in %.1fs", len(batch.Jobs), batch.Tags, time.Since(start).Seconds())
			for k, j := range batch.Jobs {
				i := indexOf(jobs, j)
				if err != nil {
					errs[i] = err
					continue
				}
				ready <- built{i, bs[k]}
			}
		}
	}()
	var wg sync.WaitGroup
	for range soundnessParallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range ready {
				rn := base
				if bug := jobs[r.i].Variant.Bug; bug != nil {
					rn.RunPattern = "^(" + strings.Join(bug.CaughtBy, "|") + ")$"
				}
				results[r.i], errs[r.i] = rn.RunBuilt(ctx, r.b)
			}
		}()
	}
	wg.Wait()
	return results, errs
}

// indexOf finds job j in jobs: the same exercise and variant.
func indexOf(jobs []grader.Job, j grader.Job) int {
	for i, x := range jobs {
		if x.Exercise.Dir == j.Exercise.Dir && x.Variant.String() == j.Variant.String() {
			return i
		}
	}
	panic("a batch holds a job that is not in the list: " + j.Exercise.Dir + "/" + j.Variant.String())
}

func checkResult(t *testing.T, res grader.Result) {
	t.Helper()
	v := res.Variant
	cmd := "go test -tags " + v.Tags + " ./exercises/" + res.Exercise.Dir + "/"
	if v.Bug != nil {
		cmd = "go run ./exercises/grade -ex " + res.Exercise.Dir + " -bug " + v.Bug.Name + " -v"
	}
	require.False(t, res.BuildFailed, "%s does not build:\n%s", cmd, res.BuildOutput)
	require.False(t, res.TimedOut, "%s timed out:\n%s", cmd, tail(res.Output))
	if v.Bug == nil && v.Tags == "solution" {
		require.Equal(t, "pass", res.Status(), "the grader must pass on the reference: %s\nnot passing: %v\n%s",
			cmd, res.Failed(), tail(res.Output))
		return
	}
	require.False(t, res.Panicked, "the grader must report failures as test failures, not crash: %s\n%s", cmd, tail(res.Output))
	require.NotZero(t, res.ExitCode, "the grader must fail: %s\n%s", cmd, tail(res.Output))
	if v.Bug == nil {
		for _, tr := range res.Tests {
			assert.Equal(t, "fail", tr.Status, "%s must fail on the stub (%s): the stub must score zero", tr.Name, cmd)
		}
		return
	}
	byName := map[string]string{}
	for _, tr := range res.Tests {
		byName[tr.Name] = tr.Status
	}
	for _, name := range v.Bug.CaughtBy {
		assert.Equal(t, "fail", byName[name], "bugs/%s.patch says %s catches it (%s), but it did not fail:\n%s",
			v.Bug.Name, name, v.Bug.Description, tail(res.Output))
	}
}

// export.sh makes a copy without references or planted bugs in which the
// exercises still build, the meta-test passes (in its student-copy mode),
// and the grader grades the student's files. It exports HEAD: run it on a
// committed tree (as CI is).
func TestExportMakesAStudentCopyThatBuilds(t *testing.T) {
	if !*soundness {
		t.Skip("run with -args -soundness (make test-exercises)")
	}
	if studentCopy(t) {
		t.Skip("already a student copy")
	}
	if err := exec.Command("git", "rev-parse", "--git-dir").Run(); err != nil {
		t.Skip("not a git checkout: export.sh exports a commit")
	}
	goBin, err := grader.GoCommand()
	require.NoError(t, err)
	dest := filepath.Join(t.TempDir(), "student")
	out, err := exec.Command("sh", "export.sh", dest).CombinedOutput()
	require.NoError(t, err, "export.sh:\n%s", out)

	left, err := filepath.Glob(filepath.Join(dest, "exercises", "*", "*_solution.go"))
	require.NoError(t, err)
	assert.Empty(t, left, "references left in the student copy")
	bugs, err := filepath.Glob(filepath.Join(dest, "exercises", "*", "bugs"))
	require.NoError(t, err)
	assert.Empty(t, bugs, "planted bugs left in the student copy")
	for _, ex := range exercises(t) {
		assert.FileExists(t, filepath.Join(dest, "exercises", ex.Dir, "README.md"))
	}

	// The light exercises compile there (the others only differ in what
	// they import), and the copy's own meta-test passes.
	for _, args := range [][]string{
		{"vet", "-tags", "exercise", "./exercises/01-ratelimiter/", "./exercises/04-workqueue/"},
		{"test", "-count=1", "./exercises/"},
		{"run", "./exercises/grade", "-ex", "4", "-format", "json"},
	} {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = dest
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s in the student copy:\n%s", strings.Join(args, " "), out)
		if args[0] == "run" {
			assert.Contains(t, string(out), `"exercise": "04-workqueue"`)
			assert.Contains(t, string(out), `"variant": "stub"`)
		}
	}
}

// tail keeps the end of a long output for a failure message.
func tail(s string) string {
	const keep = 6000
	if len(s) > keep {
		return "...\n" + s[len(s)-keep:]
	}
	return s
}

// The file layout the meta-test and the students rely on: a README with
// the sections every exercise has, a stub and a reference with opposite
// tags, graders that plain "go test ./..." does not build (they would fail
// on the stub), and at least two planted bugs.
func TestEveryExerciseHasReadmeStubReferenceGraderAndBugs(t *testing.T) {
	student := studentCopy(t)
	for _, ex := range exercises(t) {
		t.Run(ex.Dir, func(t *testing.T) {
			readme, err := os.ReadFile(filepath.Join(ex.Dir, "README.md"))
			require.NoError(t, err)
			for _, section := range []string{"## What to build", "## Read first", "## The Kubernetes original", "## Hints", "## Grading", "Expected time: "} {
				assert.True(t, strings.Contains(string(readme), section), "%s/README.md has no %q", ex.Dir, section)
			}
			files, err := filepath.Glob(filepath.Join(ex.Dir, "*.go"))
			require.NoError(t, err)
			var stubs, refs, graders int
			for _, f := range files {
				src, err := os.ReadFile(f)
				require.NoError(t, err)
				tag := buildTag(string(src))
				switch {
				case strings.HasSuffix(f, "_test.go"):
					graders++
					assert.Equal(t, graderTag, tag, "%s: a grader must not build without a tag", f)
				case tag == stubTag:
					stubs++
				case tag == refTag:
					refs++
					assert.True(t, strings.HasSuffix(f, "_solution.go"), "%s: references are named *_solution.go (export.sh removes them)", f)
				default:
					assert.Empty(t, tag, "%s: given code builds under every tag", f)
				}
			}
			assert.Positive(t, stubs, "no file tagged %q for the student", stubTag)
			assert.Positive(t, graders, "no grader")
			assert.NotEmpty(t, ex.Tests, "the grader declares no tests")
			if student {
				return
			}
			assert.Positive(t, refs, "no reference tagged %q", refTag)
			assert.GreaterOrEqual(t, len(ex.Bugs), 2, "%s/bugs needs at least two planted bugs", ex.Dir)
		})
	}
}

// A planted bug changes only the exercise's reference, applies to it as it
// is today, and names tests the grader has.
func TestPlantedBugsApplyToTheReferenceAndNameRealTests(t *testing.T) {
	root, err := grader.ModuleRoot(".")
	require.NoError(t, err)
	for _, ex := range exercises(t) {
		for _, b := range ex.Bugs {
			t.Run(ex.Dir+"/"+b.Name, func(t *testing.T) {
				for _, fp := range b.Files {
					dir, file := filepath.Split(fp.Path)
					assert.Equal(t, "exercises/"+ex.Dir+"/", dir, "a planted bug patches its own exercise")
					assert.True(t, strings.HasSuffix(file, "_solution.go"), "a planted bug patches the reference, not %s", fp.Path)
					orig, err := os.ReadFile(filepath.Join(root, fp.Path))
					require.NoError(t, err)
					patched, err := fp.Apply(string(orig))
					require.NoError(t, err, "bugs/%s.patch no longer applies: regenerate it with git diff", b.Name)
					assert.NotEqual(t, string(orig), patched)
				}
				for _, name := range b.CaughtBy {
					assert.Contains(t, ex.Tests, name, "bugs/%s.patch says it is caught by %s, which the grader does not declare", b.Name, name)
				}
			})
		}
	}
}

// buildTag returns the //go:build line of a Go file, if any comes before
// the package clause.
func buildTag(src string) string {
	for _, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(line, "//go:build ") {
			return strings.TrimSpace(line)
		}
		if strings.HasPrefix(line, "package ") {
			return ""
		}
	}
	return ""
}

// Like docs/citations_test.go: every `path/file.go:Name` that cites
// kubeloop code in the exercises' READMEs names a file that exists and
// declares Name. Kubernetes' paths (staging/, pkg/, cmd/kube-*) are not
// checked.
var citation = regexp.MustCompile("`([a-z0-9_./-]+\\.go):([A-Za-z_][A-Za-z0-9_]*)`")

func TestReadmesCiteCodeThatExists(t *testing.T) {
	readmes, err := filepath.Glob("*/README.md")
	require.NoError(t, err)
	readmes = append(readmes, "README.md", "../docs/exercises.md")
	checked := 0
	for _, readme := range readmes {
		text, err := os.ReadFile(readme)
		require.NoError(t, err)
		for _, m := range citation.FindAllStringSubmatch(string(text), -1) {
			path, name := m[1], m[2]
			top := strings.Split(path, "/")[0]
			if top == "staging" || top == "pkg" || top == "cmd" {
				continue
			}
			if strings.HasSuffix(path, "_solution.go") && studentCopy(t) {
				continue
			}
			checked++
			src, err := os.ReadFile(filepath.Join("..", path))
			if err != nil {
				t.Errorf("%s cites %s, which does not exist", readme, path)
				continue
			}
			if !declares(string(src), name) {
				t.Errorf("%s cites %s:%s, but %s declares no %s", readme, path, name, path, name)
			}
		}
	}
	require.Positive(t, checked, "the READMEs cite no kubeloop code")
}

func declares(src, name string) bool {
	q := regexp.QuoteMeta(name)
	decl := regexp.MustCompile(`(?m)^func (\([^)]*\) )?` + q + `\b|^type ` + q + `\b|^\s*(const |var )?` + q + `\s*(=|[A-Za-z*\[])`)
	return decl.MatchString(src)
}

func TestDeclaresFindsFuncsMethodsTypesAndConsts(t *testing.T) {
	src := "package x\n\nfunc (s *Store[T]) Create() {}\ntype Thing struct{}\nconst (\n\tLabelKey = \"k\"\n)\nfunc New() {}\n"
	for _, name := range []string{"Create", "Thing", "LabelKey", "New"} {
		assert.True(t, declares(src, name), name)
	}
	for _, name := range []string{"Delete", "Thin", "store"} {
		assert.False(t, declares(src, name), name)
	}
}
