package grader

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Exercise is one numbered directory under exercises/, such as
// 04-workqueue: one Go package with a stub, a reference and a grader.
type Exercise struct {
	// Dir is the directory's name, e.g. "04-workqueue".
	Dir string
	// Number is its two-digit prefix, e.g. 4.
	Number int
	// Path is the directory's path on disk.
	Path string
	// Tests are the grader's top-level tests, in the order of their files
	// and declarations (go test's order): the denominator of the score.
	Tests []string
	// Bugs are the planted bugs in Path/bugs, by name.
	Bugs []Bug
}

// Bug is a planted bug: a small patch to the reference solution that a
// sound grader must catch.
type Bug struct {
	// Name is the patch file's name without ".patch".
	Name string
	// Path is the patch file.
	Path string
	// Description is the patch's "Bug:" line: what is wrong.
	Description string
	// CaughtBy names the grader tests that must fail on it ("Caught by:").
	CaughtBy []string
	// Files are the patched files, as paths relative to the module root.
	Files []FilePatch
}

var exerciseDir = regexp.MustCompile(`^([0-9]{2})-[a-z0-9-]+$`)

// Discover lists the exercises under root (the exercises/ directory) in
// order of their numbers.
func Discover(root string) ([]Exercise, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []Exercise
	for _, e := range entries {
		m := exerciseDir.FindStringSubmatch(e.Name())
		if !e.IsDir() || m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		ex := Exercise{Dir: e.Name(), Number: n, Path: filepath.Join(root, e.Name())}
		if ex.Tests, err = declaredTests(ex.Path); err != nil {
			return nil, err
		}
		if ex.Bugs, err = readBugs(filepath.Join(ex.Path, "bugs")); err != nil {
			return nil, fmt.Errorf("%s: %w", ex.Dir, err)
		}
		out = append(out, ex)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no exercises under %s", root)
	}
	return out, nil
}

// Select picks exercises by number ("4", "04"), directory ("04-workqueue")
// or name ("workqueue"); the words may be separated by spaces or commas.
// An empty selection is every exercise.
func Select(all []Exercise, selection string) ([]Exercise, error) {
	words := strings.FieldsFunc(selection, func(r rune) bool { return r == ',' || r == ' ' })
	if len(words) == 0 {
		return all, nil
	}
	var out []Exercise
	for _, w := range words {
		found := false
		for _, ex := range all {
			if n, err := strconv.Atoi(w); (err == nil && n == ex.Number) || w == ex.Dir || w == ex.Dir[3:] {
				out = append(out, ex)
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("no exercise %q (have %s)", w, dirNames(all))
		}
	}
	return out, nil
}

func dirNames(exs []Exercise) string {
	var names []string
	for _, ex := range exs {
		names = append(names, ex.Dir)
	}
	return strings.Join(names, ", ")
}

// Bug returns the planted bug called name.
func (ex Exercise) Bug(name string) (Bug, bool) {
	for _, b := range ex.Bugs {
		if b.Name == name {
			return b, true
		}
	}
	return Bug{}, false
}

// declaredTests parses the grader files (*_test.go) for top-level
// func TestXxx(t *testing.T), as go test finds them.
func declaredTests(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files) // go test compiles, and runs, the files in name order
	var tests []string
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if ok && fn.Recv == nil && isTestName(fn.Name.Name) && fn.Type.Params.NumFields() == 1 {
				tests = append(tests, fn.Name.Name)
			}
		}
	}
	return tests, nil
}

// isTestName is go test's rule: "Test", then nothing or a non-lower-case
// letter. TestMain is not a test.
func isTestName(name string) bool {
	if !strings.HasPrefix(name, "Test") || name == "TestMain" {
		return false
	}
	rest := name[len("Test"):]
	return rest == "" || !(rest[0] >= 'a' && rest[0] <= 'z')
}

// readBugs reads every bugs/*.patch of an exercise; a missing directory
// means no planted bugs (a student copy has none).
func readBugs(dir string) ([]Bug, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.patch"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var bugs []Bug
	for _, p := range paths {
		text, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		b, err := parseBug(string(text))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(p), err)
		}
		b.Name = strings.TrimSuffix(filepath.Base(p), ".patch")
		b.Path = p
		bugs = append(bugs, b)
	}
	return bugs, nil
}

// parseBug reads a planted bug: a header of "Bug:" (the description, which
// may continue on the following lines) and "Caught by:" (test names), then
// a unified diff such as git diff writes. git apply and patch skip the
// header, so an instructor can apply the file by hand.
func parseBug(text string) (Bug, error) {
	var b Bug
	header, files, err := ParsePatch(text)
	if err != nil {
		return b, err
	}
	b.Files = files
	var desc []string
	inDesc := false
	for _, line := range strings.Split(header, "\n") {
		switch {
		case strings.HasPrefix(line, "Bug:"):
			desc = append(desc, strings.TrimSpace(strings.TrimPrefix(line, "Bug:")))
			inDesc = true
		case strings.HasPrefix(line, "Caught by:"):
			b.CaughtBy = strings.Fields(strings.TrimPrefix(line, "Caught by:"))
			inDesc = false
		case strings.TrimSpace(line) == "":
			inDesc = false
		case inDesc:
			desc = append(desc, strings.TrimSpace(line))
		}
	}
	b.Description = strings.Join(desc, " ")
	if b.Description == "" {
		return b, fmt.Errorf(`no "Bug:" line saying what is wrong`)
	}
	if len(b.CaughtBy) == 0 {
		return b, fmt.Errorf(`no "Caught by:" line naming the tests that catch it`)
	}
	return b, nil
}
