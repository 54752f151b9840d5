// Package exercises holds kubeloop's graded exercises, one package per
// directory (01-ratelimiter, 02-labeler, 03-scheduler-plugin): skeleton
// code with a stub for the student to replace, a reference solution behind
// the build tag "solution", and a grader behind "exercise || solution".
// This package itself holds only the meta-test that keeps the promise
// true for every exercise: the stub compiles, the grader fails on it and
// passes on the reference. README.md is the guide for students and
// instructors; the model is talent-plan's tinykv.
package exercises
