// Package exercises holds kubeloop's graded exercises, one package per
// numbered directory (01-ratelimiter, 02-labeler, ...): skeleton code with
// a stub for the student to replace, a reference solution behind the build
// tag "solution", a grader behind "exercise || solution", and planted bugs
// (bugs/*.patch) that the grader must catch.
//
// This package itself holds only the meta-test that keeps that promise for
// every exercise: the quick layout checks run with every go test ./...;
// TestGradersAreSound (make test-exercises) runs each grader against its
// stub (every test must fail), its reference (every test must pass) and
// its planted bugs (the tests each names must fail). Package grader runs
// the graders, command grade prints the score table (make grade), and
// export.sh writes a student copy without references or bugs.
//
// README.md is the students' guide and docs/exercises.md the instructors';
// the model is talent-plan's tinykv.
package exercises
