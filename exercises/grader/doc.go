// Package grader runs the graders of kubeloop's exercises the way a student
// does, with go test in a subprocess, and turns the result into a score:
// the share of an exercise's top-level tests that pass. It also knows the
// exercises' layout (exercise.go): the numbered directories, the tests
// each grader declares, and the planted bugs kept next to each reference
// solution as patches (bugs/*.patch), which it applies to a copy of the
// reference through go's -overlay flag (patch.go), so that the repository
// is never modified. batch.go is a speed-up the soundness proof uses:
// many variants built with one go test -c, then run from their binaries.
//
// Three programs use it: exercises/grade (make grade: the score table, or
// JSON for autograders), the soundness test in exercises/exercises_test.go
// (every grader fails on its stub and on every planted bug, and passes on
// its reference), and instructors running one planted bug by hand.
//
// Kubernetes counterpart: none; the model is talent-plan's tinykv, whose
// make targets run one part's tests. What it leaves out: weights per test
// (every top-level test is worth the same), and hidden tests.
package grader
