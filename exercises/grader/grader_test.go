package grader

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const samplePatch = `Bug: Done forgets the key.
It is lost for good.
Caught by: TestA TestB

diff --git a/exercises/99-x/x_solution.go b/exercises/99-x/x_solution.go
index 1234567..89abcde 100644
--- a/exercises/99-x/x_solution.go
+++ b/exercises/99-x/x_solution.go
@@ -2,4 +2,3 @@ func f() {
 	a()
-	b()
 	c()

`

func TestParseBugReadsHeaderFilesAndHunks(t *testing.T) {
	b, err := parseBug(samplePatch)
	require.NoError(t, err)
	assert.Equal(t, "Done forgets the key. It is lost for good.", b.Description)
	assert.Equal(t, []string{"TestA", "TestB"}, b.CaughtBy)
	require.Len(t, b.Files, 1)
	assert.Equal(t, "exercises/99-x/x_solution.go", b.Files[0].Path)
	require.Len(t, b.Files[0].Hunks, 1)
	h := b.Files[0].Hunks[0]
	assert.Equal(t, 2, h.OldStart)
	assert.Equal(t, []string{" \ta()", "-\tb()", " \tc()", " "}, h.Lines, "the blank context line counts as context")
}

func TestParseBugWantsADescriptionAndTheTestsThatCatchIt(t *testing.T) {
	_, err := parseBug(strings.Replace(samplePatch, "Caught by: TestA TestB\n", "", 1))
	assert.ErrorContains(t, err, "Caught by:")
	_, err = parseBug(strings.Replace(samplePatch, "Bug: Done forgets the key.\nIt is lost for good.\n", "", 1))
	assert.ErrorContains(t, err, "Bug:")
	_, err = parseBug("Bug: x\nCaught by: TestA\n")
	assert.ErrorContains(t, err, "no diff")
}

func TestApplyFindsTheHunkWhereverTheFileMovedIt(t *testing.T) {
	b, err := parseBug(samplePatch)
	require.NoError(t, err)
	// Three lines were added above the hunk since the patch was made.
	orig := "package x\n// one\n// two\n// three\nfunc f() {\n\ta()\n\tb()\n\tc()\n\n}\n"
	got, err := b.Files[0].Apply(orig)
	require.NoError(t, err)
	assert.Equal(t, "package x\n// one\n// two\n// three\nfunc f() {\n\ta()\n\tc()\n\n}\n", got)
}

func TestApplyRefusesAHunkWhoseLinesAreNotThere(t *testing.T) {
	b, err := parseBug(samplePatch)
	require.NoError(t, err)
	_, err = b.Files[0].Apply("package x\nfunc f() {\n\ta()\n\tB()\n\tc()\n}\n")
	assert.ErrorContains(t, err, "does not apply")
}

func TestIsTestNameFollowsGoTest(t *testing.T) {
	for name, want := range map[string]bool{"Test": true, "TestX": true, "Test_x": true, "Testx": false, "TestMain": false, "Bench": false} {
		assert.Equal(t, want, isTestName(name), name)
	}
}

func realExercises(t *testing.T) []Exercise {
	t.Helper()
	exs, err := Discover("..")
	require.NoError(t, err)
	return exs
}

func TestDiscoverFindsTheExercisesTheirTestsAndBugs(t *testing.T) {
	exs := realExercises(t)
	require.GreaterOrEqual(t, len(exs), 4)
	for i, ex := range exs {
		assert.Equal(t, i+1, ex.Number, "exercises are numbered 01, 02, ... without gaps")
		assert.NotEmpty(t, ex.Tests, ex.Dir)
	}
	four := exs[3]
	assert.Equal(t, "04-workqueue", four.Dir)
	assert.Equal(t, "TestAddThenGetHandsTheKeyOut", four.Tests[0], "tests come in file order")
	assert.NotContains(t, four.Tests, "TestMain")
	b, ok := four.Bug("drain-does-not-wait")
	require.True(t, ok)
	assert.Equal(t, []string{"TestShutDownWithDrainWaitsForKeysBeingProcessed"}, b.CaughtBy)
}

func TestSelectTakesNumbersDirectoriesAndNames(t *testing.T) {
	exs := realExercises(t)
	got, err := Select(exs, "4, 01-ratelimiter labeler")
	require.NoError(t, err)
	var dirs []string
	for _, ex := range got {
		dirs = append(dirs, ex.Dir)
	}
	assert.Equal(t, []string{"04-workqueue", "01-ratelimiter", "02-labeler"}, dirs)
	all, err := Select(exs, "")
	require.NoError(t, err)
	assert.Len(t, all, len(exs))
	_, err = Select(exs, "99")
	assert.ErrorContains(t, err, `no exercise "99"`)
}

func runner(t *testing.T) Runner {
	t.Helper()
	goBin, err := GoCommand()
	require.NoError(t, err)
	root, err := ModuleRoot(".")
	require.NoError(t, err)
	return Runner{Go: goBin, ModuleRoot: root, NoVet: true}
}

func workqueueExercise(t *testing.T) Exercise {
	t.Helper()
	sel, err := Select(realExercises(t), "4")
	require.NoError(t, err)
	return sel[0]
}

// The grader of exercise 4 is quick and needs no cluster: a real go test
// run of its stub and its reference, scored.
func TestRunScoresTheStubAtZeroAndTheReferenceInFull(t *testing.T) {
	rn, ex := runner(t), workqueueExercise(t)
	stub, err := rn.Run(context.Background(), ex, Stub())
	require.NoError(t, err)
	assert.Equal(t, "fail", stub.Status())
	assert.Zero(t, stub.Passed)
	assert.Equal(t, len(ex.Tests), stub.Total())
	assert.Contains(t, stub.Tests[0].Output, "--- FAIL: "+ex.Tests[0])

	ref, err := rn.Run(context.Background(), ex, Reference())
	require.NoError(t, err)
	assert.Equal(t, "pass", ref.Status(), ref.Output)
	assert.Equal(t, ref.Total(), ref.Passed)
	assert.InDelta(t, 1.0, ref.Score(), 1e-9)
}

// A planted bug is applied through an overlay: the grader sees the bug,
// the file on disk does not change.
func TestRunAppliesAPlantedBugWithoutTouchingTheRepository(t *testing.T) {
	rn, ex := runner(t), workqueueExercise(t)
	b, ok := ex.Bug("drain-does-not-wait")
	require.True(t, ok)
	ref := filepath.Join(rn.ModuleRoot, b.Files[0].Path)
	before, err := os.ReadFile(ref)
	require.NoError(t, err)

	res, err := rn.Run(context.Background(), ex, WithBug(b))
	require.NoError(t, err)
	assert.Equal(t, []string{"TestShutDownWithDrainWaitsForKeysBeingProcessed"}, res.Failed())
	assert.Equal(t, "bug:drain-does-not-wait", res.Variant.String())
	after, err := os.ReadFile(ref)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))
}

func TestRunReportsABuildFailureWithTheCompilersMessage(t *testing.T) {
	rn, ex := runner(t), workqueueExercise(t)
	broken := Bug{Name: "syntax", Files: []FilePatch{{
		Path:  "exercises/04-workqueue/queue_solution.go",
		Hunks: []Hunk{{OldStart: 1, Lines: []string{"-//go:build solution", "+//go:build solution", "+func {"}}},
	}}}
	res, err := rn.Run(context.Background(), ex, WithBug(broken))
	require.NoError(t, err)
	assert.True(t, res.BuildFailed)
	assert.Equal(t, "build failed", res.Status())
	assert.Contains(t, res.BuildOutput, "queue_solution.go:2:1: expected 'package'", "the message names the file as the student knows it")
	assert.Zero(t, res.Passed)
	assert.Equal(t, "not run", res.Tests[0].Status)
}

func TestReportsSumUp(t *testing.T) {
	ex := Exercise{Dir: "07-x", Number: 7, Tests: []string{"TestA", "TestB"}}
	res := Result{Exercise: ex, Variant: Stub(), ExitCode: 1}
	parseEvents(&res, []byte(`{"Action":"run","Test":"TestA"}
{"Action":"output","Test":"TestA","Output":"--- PASS: TestA\n"}
{"Action":"pass","Test":"TestA","Elapsed":0.5}
{"Action":"run","Test":"TestB"}
{"Action":"fail","Test":"TestB/sub","Elapsed":0.1}
{"Action":"output","Test":"TestB","Output":"boom\n"}
{"Action":"fail","Test":"TestB","Elapsed":0.2}
{"Action":"fail","Elapsed":1}
`))
	assert.Equal(t, 1, res.Passed)
	assert.Equal(t, []string{"TestB"}, res.Failed())
	assert.Equal(t, "fail", res.Status())
	assert.Equal(t, "boom\n", res.Tests[1].Output)

	var table strings.Builder
	require.NoError(t, WriteTable(&table, []Result{res}, false))
	assert.Contains(t, table.String(), "07-x")
	assert.Contains(t, table.String(), "1/2")
	assert.Contains(t, table.String(), "50%")
	assert.Contains(t, table.String(), "not passing: TestB")

	rep := NewReport([]Result{res})
	assert.Equal(t, 1, rep.Passed)
	assert.Equal(t, 2, rep.Total)
	assert.InDelta(t, 0.5, rep.Score, 1e-9)
	assert.Equal(t, "stub", rep.Exercises[0].Variant)
}

func TestBatchesShareTagsAndHoldEachExerciseOnce(t *testing.T) {
	a, b := Exercise{Dir: "01-a"}, Exercise{Dir: "02-b"}
	bug := func(name string) Variant { return WithBug(Bug{Name: name}) }
	jobs := []Job{
		{a, Reference()}, {a, Stub()}, {a, bug("a1")}, {a, bug("a2")},
		{b, Reference()}, {b, Stub()}, {b, bug("b1")},
	}
	var got [][]string
	for _, batch := range Batches(jobs) {
		var names []string
		for _, j := range batch.Jobs {
			assert.Equal(t, batch.Tags, j.Variant.Tags)
			names = append(names, j.Exercise.Dir[3:]+"/"+j.Variant.String())
		}
		got = append(got, names)
	}
	assert.Equal(t, [][]string{
		{"a/reference", "b/reference"},
		{"a/stub", "b/stub"},
		{"a/bug:a1", "b/bug:b1"},
		{"a/bug:a2"},
	}, got)
}

// A batch builds with one go command, and its graders then run as go test
// would have run them; a variant that does not build falls back to go
// test, which reports the compiler's message.
func TestBuildAndRunBuiltGradeAsRunDoes(t *testing.T) {
	rn, ex := runner(t), workqueueExercise(t)
	b, ok := ex.Bug("drain-does-not-wait")
	require.True(t, ok)
	broken := Bug{Name: "syntax", Files: []FilePatch{{
		Path:  "exercises/04-workqueue/queue_solution.go",
		Hunks: []Hunk{{OldStart: 1, Lines: []string{"-//go:build solution", "+//go:build solution", "+func {"}}},
	}}}
	ctx := context.Background()
	for _, tc := range []struct {
		variant Variant
		status  string
		failed  []string
	}{
		{Reference(), "pass", nil},
		{WithBug(b), "fail", []string{"TestShutDownWithDrainWaitsForKeysBeingProcessed"}},
		{WithBug(broken), "build failed", ex.Tests},
	} {
		t.Run(tc.variant.String(), func(t *testing.T) {
			built, err := rn.Build(ctx, Batch{Tags: tc.variant.Tags, Jobs: []Job{{ex, tc.variant}}}, t.TempDir())
			require.NoError(t, err)
			require.Len(t, built, 1)
			assert.Equal(t, tc.status == "build failed", built[0].Binary == "", "a binary exactly when it builds")
			res, err := rn.RunBuilt(ctx, built[0])
			require.NoError(t, err)
			assert.Equal(t, tc.status, res.Status(), res.Output)
			assert.Equal(t, tc.failed, res.Failed())
			assert.Equal(t, len(ex.Tests), res.Total())
		})
	}
}
