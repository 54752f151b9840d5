package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// debugScript is docs/debug/stepN.dlv: a Delve init script whose header
// names the package and test `make debug STEP=N` runs.
type debugScript struct {
	pkg, test string
	breaks    []string // Delve locations: kubeloop/pkg.Func or kubeloop/pkg.(*Type).Method
}

func readDebugScript(t *testing.T, n int) (debugScript, bool) {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("debug/step%d.dlv", n))
	if os.IsNotExist(err) {
		return debugScript{}, false
	}
	require.NoError(t, err)
	var s debugScript
	for _, line := range strings.Split(string(raw), "\n") {
		switch {
		case strings.HasPrefix(line, "# package: "):
			s.pkg = strings.TrimPrefix(line, "# package: ")
		case strings.HasPrefix(line, "# test: "):
			s.test = strings.TrimPrefix(line, "# test: ")
		case strings.HasPrefix(line, "break "):
			s.breaks = append(s.breaks, strings.TrimPrefix(line, "break "))
		}
	}
	return s, true
}

// location is one Delve function location split into what the source
// must declare.
var location = regexp.MustCompile(`^kubeloop/([a-z0-9_/]+)\.(?:\(\*?([A-Za-z_]\w*)\)\.)?([A-Za-z_]\w*)$`)

// declaresFunc reports whether the package in dir declares fn (as a method
// of recv when recv is set) in a non-test file.
func declaresFunc(t *testing.T, dir, recv, fn string) bool {
	files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
	require.NoError(t, err)
	var decl *regexp.Regexp
	if recv == "" {
		decl = regexp.MustCompile(`(?m)^func ` + fn + `[\[(]`)
	} else {
		decl = regexp.MustCompile(`(?m)^func \(\w* ?\*?` + recv + `(\[[^\]]*\])?\) ` + fn + `\(`)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		if decl.Match(src) {
			return true
		}
	}
	return false
}

// Every step with a test has a debug script running that test, and every
// breakpoint in it names a function that still exists.
func TestDebugScriptsBreakOnFunctionsThatExist(t *testing.T) {
	steps := readingPath(t)
	for _, s := range steps {
		script, ok := readDebugScript(t, s.n)
		if s.test == "" {
			continue
		}
		if !assert.True(t, ok, "step %d has no docs/debug/step%d.dlv", s.n, s.n) {
			continue
		}
		assert.Equal(t, s.pkg, script.pkg, "step %d: the debug script and the page run different packages", s.n)
		assert.Equal(t, s.test, script.test, "step %d: the debug script and the page run different tests", s.n)
		require.NotEmpty(t, script.breaks, "step %d sets no breakpoint", s.n)
		for _, b := range script.breaks {
			m := location.FindStringSubmatch(b)
			if !assert.NotNil(t, m, "step %d: %q is not a kubeloop/pkg.Func or kubeloop/pkg.(*Type).Method location", s.n, b) {
				continue
			}
			assert.True(t, declaresFunc(t, m[1], m[2], m[3]), "step %d breaks on %s, which %s/ does not declare", s.n, b, m[1])
			assert.Contains(t, s.body, "`"+m[1]+"/", "step %d breaks in %s/ but its text never cites that package", s.n, m[1])
		}
	}
	extra, err := filepath.Glob(fmt.Sprintf("debug/step%d*.dlv", len(steps)+1))
	require.NoError(t, err)
	assert.Empty(t, extra, "a debug script for a step the page does not have")
}

func TestDebugLocationCheckerRejectsMissingFunctions(t *testing.T) {
	m := location.FindStringSubmatch("kubeloop/workqueue.(*Typed).Add")
	require.NotNil(t, m)
	assert.Equal(t, []string{"workqueue", "Typed", "Add"}, m[1:])
	assert.True(t, declaresFunc(t, "workqueue", "Typed", "Add"), "a method of a generic type")
	assert.True(t, declaresFunc(t, "api", "", "Decode"))
	assert.False(t, declaresFunc(t, "workqueue", "Typed", "Pop"))
	assert.False(t, declaresFunc(t, "store", "Cacher", "GuaranteedUpdate"), "the receiver must match")
}
