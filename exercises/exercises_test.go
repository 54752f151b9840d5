package exercises_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each exercise is graded in a subprocess, as a student would run it. The
// machine may have as few as two cores, and two graders start a whole
// cluster each: two subprocesses at a time is as parallel as it gets.
const maxConcurrentGraders = 2

// The build tags an exercise's files carry.
const (
	stubTag   = "//go:build !solution"
	refTag    = "//go:build solution"
	graderTag = "//go:build exercise || solution"
)

// goTool is the go command of the toolchain running this test, so the
// graders build exactly as this test did; "go" on PATH otherwise.
func goTool(t *testing.T) string {
	t.Helper()
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	p, err := exec.LookPath("go")
	require.NoError(t, err, "no go command to run the graders with")
	return p
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// exerciseDirs lists the exercise directories: NN-name.
func exerciseDirs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	numbered := regexp.MustCompile(`^[0-9]{2}-[a-z0-9-]+$`)
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && numbered.MatchString(e.Name()) {
			dirs = append(dirs, e.Name())
		}
	}
	require.NotEmpty(t, dirs, "no exercises found")
	return dirs
}

// goRun runs the go command in this directory and returns its combined
// output and exit code (-1 if it did not exit normally).
func goRun(t *testing.T, goBin string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &exit):
		return out.String(), exit.ExitCode()
	default:
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out.String())
		return "", -1
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

// The promise every exercise makes, checked the way a student meets it:
// with the reference (-tags solution) the grader passes; with the stub
// (-tags exercise) it compiles and fails with test failures, not a build
// error or a crash. go vet must be clean under both tags too, because the
// repository's plain "go vet ./..." sees neither the graders nor the
// references.
func TestEveryExerciseFailsOnTheStubAndPassesOnTheReference(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs every grader twice")
	}
	goBin := goTool(t)
	slots := make(chan struct{}, maxConcurrentGraders)
	for _, dir := range exerciseDirs(t) {
		pkg := "./" + dir + "/"
		t.Run(dir+"/reference", func(t *testing.T) {
			t.Parallel()
			slots <- struct{}{}
			defer func() { <-slots }()
			out, code := goRun(t, goBin, "vet", "-tags", "solution", pkg)
			require.Zero(t, code, "go vet -tags solution %s:\n%s", pkg, out)
			out, code = goRun(t, goBin, "test", "-count=1", "-timeout=150s", "-tags", "solution", pkg)
			require.Zero(t, code, "the grader must pass on the reference: go test -tags solution %s\n%s", pkg, tail(out))
		})
		t.Run(dir+"/stub", func(t *testing.T) {
			t.Parallel()
			slots <- struct{}{}
			defer func() { <-slots }()
			out, code := goRun(t, goBin, "vet", "-tags", "exercise", pkg)
			require.Zero(t, code, "go vet -tags exercise %s:\n%s", pkg, out)
			out, code = goRun(t, goBin, "test", "-count=1", "-timeout=150s", "-tags", "exercise", pkg)
			require.NotZero(t, code, "the grader must fail on the stub: go test -tags exercise %s\n%s", pkg, tail(out))
			assert.NotContains(t, out, "[build failed]", "the stub must compile")
			assert.NotContains(t, out, "[setup failed]", "the stub must compile")
			assert.NotContains(t, out, "panic:", "the grader must report the stub's failures, not crash on it")
			assert.Contains(t, out, "--- FAIL: Test", "the grader must fail with test failures\n%s", tail(out))
		})
	}
}

// The file layout the meta-test and the students rely on: a README, a stub
// and a reference with opposite tags, graders that plain "go test ./..."
// does not build (they would fail on the stub).
func TestEveryExerciseHasReadmeStubReferenceAndTaggedGrader(t *testing.T) {
	for _, dir := range exerciseDirs(t) {
		t.Run(dir, func(t *testing.T) {
			assert.FileExists(t, filepath.Join(dir, "README.md"))
			files, err := filepath.Glob(filepath.Join(dir, "*.go"))
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
				default:
					assert.Empty(t, tag, "%s: given code builds under every tag", f)
				}
			}
			assert.Positive(t, stubs, "no file tagged %q for the student", stubTag)
			assert.Positive(t, refs, "no reference tagged %q", refTag)
			assert.Positive(t, graders, "no grader")
		})
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
	readmes = append(readmes, "README.md")
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
