package docs

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// architecture.md's package table says, for each top-level package, what
// its non-test code may import from the project. These tests hold the code
// to that table, and the table to the code: every package has a row, every
// row names a package that exists.

const module = "kubeloop/"

// packageRule is one row of the table: the top-level directories it covers
// and what they may import (nil with any = true: everything).
type packageRule struct {
	dirs    []string
	owns    string
	allowed map[string]bool
	any     bool
}

var (
	backticked  = regexp.MustCompile("`([^`]+)`")
	parenthesis = regexp.MustCompile(`\([^()]*\)`)
)

// packageTable parses architecture.md's package table into rules by
// top-level directory.
func packageTable(t *testing.T) map[string]*packageRule {
	t.Helper()
	text, err := os.ReadFile("architecture.md")
	require.NoError(t, err)
	_, table, ok := strings.Cut(string(text), "| package | owns | may import (project) |\n|---|---|---|\n")
	require.True(t, ok, "architecture.md has no package table")
	table, _, _ = strings.Cut(table, "\n\n")
	rules := map[string]*packageRule{}
	var sameAsControllers []*packageRule
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		require.Len(t, cells, 3, "a row of three cells: %q", line)
		r := &packageRule{owns: cells[1], allowed: map[string]bool{}}
		for _, m := range backticked.FindAllStringSubmatch(cells[0], -1) {
			r.dirs = append(r.dirs, strings.TrimSuffix(m[1], "/"))
		}
		require.NotEmpty(t, r.dirs, "row %q names no package", line)
		may := cells[2]
		switch {
		case strings.HasPrefix(may, "everything"):
			r.any = true
		case may == "nothing":
		case may == "same as controllers":
			sameAsControllers = append(sameAsControllers, r)
		default:
			// A parenthesis explains; what it names is not allowed.
			for _, m := range backticked.FindAllStringSubmatch(parenthesis.ReplaceAllString(may, ""), -1) {
				r.allowed[m[1]] = true
			}
			require.NotEmpty(t, r.allowed, "row %q: cannot read %q", line, may)
		}
		for _, d := range r.dirs {
			require.Nil(t, rules[d], "%s has two rows", d)
			rules[d] = r
		}
	}
	require.NotNil(t, rules["controllers"])
	for _, r := range sameAsControllers {
		r.allowed = rules["controllers"].allowed
	}
	return rules
}

// mainModulePackages maps each directory of the main module holding
// non-test Go files to the project packages those files import.
func mainModulePackages(t *testing.T) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && rel != "." {
				return filepath.SkipDir // another module (conformance/, examples/configmap-controller/)
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		if _, seen := pkgs[dir]; !seen {
			pkgs[dir] = nil
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, module) {
				pkgs[dir] = append(pkgs[dir], strings.TrimPrefix(p, module))
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Contains(t, pkgs, "controllers/replicaset", "the walk found the code")
	return pkgs
}

func topLevel(path string) string {
	top, _, _ := strings.Cut(path, "/")
	return top
}

// importAllowed reports whether code in package from may import package to.
func importAllowed(rules map[string]*packageRule, from, to string) bool {
	r := rules[topLevel(from)]
	switch {
	case r == nil:
		return false
	case r.any, topLevel(to) == topLevel(from), topLevel(to) == "trace":
		return true
	}
	return r.allowed[topLevel(to)]
}

// knownViolations are imports that break the table and are reported as
// bugs; architecture.md names each. An entry that no longer occurs fails
// the test, so it is removed with the fix.
var knownViolations = map[string]bool{}

func TestEveryImportIsOneArchitectureAllows(t *testing.T) {
	rules := packageTable(t)
	pkgs := mainModulePackages(t)
	dirs := make([]string, 0, len(pkgs))
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	checked := 0
	seen := map[string]bool{}
	for _, dir := range dirs {
		if dir == "." {
			continue
		}
		if rules[topLevel(dir)] == nil {
			t.Errorf("package %s has no row in architecture.md's package table", dir)
			continue
		}
		for _, imp := range pkgs[dir] {
			checked++
			if edge := dir + " -> " + imp; knownViolations[edge] {
				seen[edge] = true
				continue
			}
			assert.True(t, importAllowed(rules, dir, imp),
				"%s imports %s, which architecture.md's package table does not allow", dir, imp)
		}
	}
	require.Greater(t, checked, 100, "the imports were found")
	for edge := range knownViolations {
		assert.True(t, seen[edge], "%s no longer happens: drop it from knownViolations and architecture.md", edge)
	}
	doc, err := os.ReadFile("architecture.md")
	require.NoError(t, err)
	for edge := range knownViolations {
		from, to, _ := strings.Cut(edge, " -> ")
		assert.Contains(t, string(doc), "`"+from+"` imports `"+to+"`", "architecture.md names the known violation %s", edge)
	}
}

func TestEveryArchitectureRowIsAPackage(t *testing.T) {
	for dir := range packageTable(t) {
		if dir == "conformance" {
			_, err := os.Stat("../conformance/go.mod")
			assert.NoError(t, err, "conformance is a module of its own")
			continue
		}
		st, err := os.Stat(filepath.Join("..", dir))
		if assert.NoError(t, err, "architecture.md has a row for %s/, which does not exist", dir) {
			assert.True(t, st.IsDir())
		}
	}
}

// The controllers row names every controller package, and only those.
func TestArchitectureListsEveryControllerPackage(t *testing.T) {
	owns := packageTable(t)["controllers"].owns
	_, list, ok := strings.Cut(owns, "one sub-package per controller (")
	require.True(t, ok, "the controllers row lists its sub-packages: %q", owns)
	list, _, _ = strings.Cut(list, ";")
	named := map[string]bool{}
	for _, m := range backticked.FindAllStringSubmatch(list, -1) {
		named[m[1]] = true
	}
	entries, err := os.ReadDir("../controllers")
	require.NoError(t, err)
	found := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "worker" {
			found[e.Name()] = true
		}
	}
	require.Equal(t, found, named, "controllers/ sub-packages versus architecture.md's controllers row")
	require.Contains(t, owns, "`controllers/worker`")
}

func TestImportRuleCheckerRejectsWhatTheTableForbids(t *testing.T) {
	rules := map[string]*packageRule{
		"controllers": {allowed: map[string]bool{"api": true, "client": true}},
		"cluster":     {any: true},
	}
	assert.True(t, importAllowed(rules, "controllers/job", "controllers/replicaset"), "own sub-packages")
	assert.True(t, importAllowed(rules, "controllers/job", "client/record"), "an allowed package's sub-packages")
	assert.True(t, importAllowed(rules, "controllers/job", "trace"))
	assert.False(t, importAllowed(rules, "controllers/job", "store"))
	assert.False(t, importAllowed(rules, "controllers/job", "apiserver/admission"))
	assert.False(t, importAllowed(rules, "kubelet", "api"), "a package without a row")
	assert.True(t, importAllowed(rules, "cluster/full", "controllers"))
}

// The budgets architecture.md states are hack/linebudget.sh's, and each
// file it names as counted apart carries the header the script looks for.
func TestArchitectureReadingBudgetsAreTheScripts(t *testing.T) {
	script, err := os.ReadFile("../hack/linebudget.sh")
	require.NoError(t, err)
	doc, err := os.ReadFile("architecture.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(doc), "## Reading budgets and fenced-off speed-ups\n")
	require.True(t, ok)
	section, _, _ = strings.Cut(section, "\n\n\n")
	paragraph, _, _ := strings.Cut(strings.TrimSpace(section), "\n\n")
	flat := strings.Join(strings.Fields(paragraph), " ")

	concept := regexp.MustCompile(`(?m)^\s+"([a-z-]+)\|(\d+)\|(\d+)\|`)
	matches := concept.FindAllStringSubmatch(string(script), -1)
	require.NotEmpty(t, matches, "the script's concepts")
	for _, m := range matches {
		assert.Contains(t, flat, m[1]+" "+m[2], "architecture.md states %s's budget as the script does", m[1])
	}

	apart := regexp.MustCompile("`([a-z0-9_.-]+/[a-z0-9_/.-]+\\.go)`")
	named := 0
	for _, m := range apart.FindAllStringSubmatch(flat, -1) {
		if strings.HasSuffix(m[1], "_test.go") {
			continue // the test that checks this
		}
		src, err := os.ReadFile(filepath.Join("..", m[1]))
		if !assert.NoError(t, err, "architecture.md names %s", m[1]) {
			continue
		}
		named++
		lines := strings.SplitN(string(src), "\n", 13)
		head := strings.ToLower(strings.Join(lines[:min(12, len(lines))], "\n"))
		assert.Contains(t, head, "skip on a first reading", "%s is named as counted apart", m[1])
	}
	require.Positive(t, named)
}
