package docs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reading path has the deep-dive's eleven steps, and the spine its ten
// arrows; these tests keep every document on those two numberings and
// every step's commands runnable.
const (
	readingPathSteps = 11
	spineArrows      = 10
)

var (
	stepHeading = regexp.MustCompile(`(?m)^## Step (\d+)\. `)
	runCommand  = regexp.MustCompile("\\*\\*Run it:\\*\\* `go test -count=1 -run '\\^(Test\\w+)\\$' (\\./[a-z0-9_/]+)/`")
	// Step references in prose: "reading-path step 7", "spine arrow 3",
	// "spine arrows 4–5" (or 4-5, or "4 and 5").
	stepRef  = regexp.MustCompile(`(?i)reading-path steps? (\d+)(?:\s*(?:–|-|to|and)\s*(\d+))?`)
	arrowRef = regexp.MustCompile(`(?i)spine arrows? (\d+)(?:\s*(?:–|-|to|and)\s*(\d+))?`)
	// The numberings these documents used before there was one.
	staleRefs = regexp.MustCompile(`ARCHITECTURE\.md|[Ss]teps? \d+(?:–\d+)? of "scale to 5"|Step \d+'s end|end of step \d+`)
)

// step is one "## Step N." section of reading-path.md.
type step struct {
	n         int
	body      string
	test, pkg string // from its "Run it" command
}

func readingPath(t *testing.T) []step {
	t.Helper()
	text, err := os.ReadFile("reading-path.md")
	require.NoError(t, err)
	locs := stepHeading.FindAllStringSubmatchIndex(string(text), -1)
	var steps []step
	for i, loc := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		if next := strings.Index(string(text[loc[1]:end]), "\n## "); next >= 0 {
			end = loc[1] + next
		}
		n, _ := strconv.Atoi(string(text[loc[2]:loc[3]]))
		s := step{n: n, body: string(text[loc[0]:end])}
		if m := runCommand.FindStringSubmatch(s.body); m != nil {
			s.test, s.pkg = m[1], m[2]
		}
		steps = append(steps, s)
	}
	return steps
}

func TestReadingPathHasTheElevenStepsInOrder(t *testing.T) {
	steps := readingPath(t)
	require.Len(t, steps, readingPathSteps, "reading-path.md must have the deep-dive's %d steps", readingPathSteps)
	for i, s := range steps {
		assert.Equal(t, i+1, s.n, "steps are numbered 1..%d in order", readingPathSteps)
		for _, part := range []string{"**Kubernetes:**", "**kubeloop:**", "**What we simplify:**", "**Run it:**", "**Break at:**"} {
			assert.Contains(t, s.body, part, "step %d", s.n)
		}
		assert.NotEmpty(t, s.test, "step %d has no `go test -count=1 -run '^TestX$' ./pkg/` command", s.n)
	}
}

// Each step's command names a test that exists in that package, written
// for the reader: its name says which step it is.
func TestReadingPathCommandsNameTestsThatExist(t *testing.T) {
	for _, s := range readingPath(t) {
		if s.test == "" {
			continue
		}
		assert.True(t, strings.HasPrefix(s.test, fmt.Sprintf("TestReadingPathStep%d", s.n)) &&
			!strings.HasPrefix(s.test, fmt.Sprintf("TestReadingPathStep%d", s.n*10)),
			"step %d runs %s: a reading-path test is named TestReadingPathStep%d...", s.n, s.test, s.n)
		assert.True(t, packageDeclaresTest(t, s.pkg, s.test), "step %d: %s declares no %s", s.n, s.pkg, s.test)
	}
}

func packageDeclaresTest(t *testing.T, pkg, test string) bool {
	files, err := filepath.Glob(filepath.Join("..", pkg, "*_test.go"))
	require.NoError(t, err)
	decl := regexp.MustCompile(`(?m)^func ` + test + `\(t \*testing\.T\)`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		if decl.Match(src) {
			return true
		}
	}
	return false
}

// Every document uses the two numberings: reading-path steps 1-11, spine
// arrows 1-10, and none of the old ones.
func TestStepReferencesUseOneNumbering(t *testing.T) {
	files := []string{"../README.md"}
	md, err := filepath.Glob("*.md")
	require.NoError(t, err)
	files = append(files, md...)
	require.NoError(t, filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.Name() == "doc.go" {
			files = append(files, path)
		}
		return nil
	}))
	refs := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range staleRefs.FindAllString(string(text), -1) {
			t.Errorf("%s: %q is an old numbering: say \"spine arrow N\" (1-%d) or \"reading-path step N\" (1-%d), and docs/architecture.md",
				f, m, spineArrows, readingPathSteps)
		}
		for _, ref := range []struct {
			re  *regexp.Regexp
			max int
		}{{stepRef, readingPathSteps}, {arrowRef, spineArrows}} {
			for _, m := range ref.re.FindAllStringSubmatch(string(text), -1) {
				refs++
				for _, g := range m[1:] {
					if n, err := strconv.Atoi(g); err == nil && (n < 1 || n > ref.max) {
						t.Errorf("%s: %q: there is no such step (1-%d)", f, m[0], ref.max)
					}
				}
			}
		}
	}
	assert.Positive(t, refs, "no document refers to a step at all")
}

func TestStepReferenceCheckerCatchesOldNumberings(t *testing.T) {
	assert.True(t, staleRefs.MatchString(`This is step 5 of "scale to 5" (the spine in ARCHITECTURE.md).`))
	assert.True(t, staleRefs.MatchString(`// Step 6's end.`))
	assert.False(t, staleRefs.MatchString(`spine arrows 4–5; reading-path step 7 (docs/architecture.md)`))
	m := arrowRef.FindStringSubmatch("spine arrows 4–5")
	require.NotNil(t, m)
	assert.Equal(t, []string{"4", "5"}, m[1:])
}

// launch.json has one configuration per step, running the same test as
// the page and as make debug.
func TestVSCodeLaunchConfigsMatchTheSteps(t *testing.T) {
	raw, err := os.ReadFile("../.vscode/launch.json")
	require.NoError(t, err)
	var launch struct {
		Configurations []struct {
			Name    string   `json:"name"`
			Mode    string   `json:"mode"`
			Program string   `json:"program"`
			Args    []string `json:"args"`
		} `json:"configurations"`
	}
	require.NoError(t, json.Unmarshal(raw, &launch))
	byName := map[string]int{}
	for i, c := range launch.Configurations {
		byName[c.Name] = i
	}
	for _, s := range readingPath(t) {
		if s.test == "" {
			continue
		}
		name := fmt.Sprintf("Reading path step %d", s.n)
		var found bool
		for cn, i := range byName {
			if !strings.HasPrefix(cn, name+":") {
				continue
			}
			found = true
			c := launch.Configurations[i]
			assert.Equal(t, "test", c.Mode, cn)
			assert.Equal(t, "${workspaceFolder}/"+strings.TrimPrefix(s.pkg, "./"), c.Program, cn)
			assert.Equal(t, []string{"-test.run", "^" + s.test + "$", "-test.count=1", "-test.v"}, c.Args, cn)
		}
		assert.True(t, found, "launch.json has no %q configuration", name)
	}
}
