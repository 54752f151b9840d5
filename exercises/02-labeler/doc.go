// Package labeler is exercise 2: the reconcile of the smallest complete
// controller, which keeps the label managed-by=configmap-controller on every
// ConfigMap. The plumbing (informer, handlers, workqueue, workers) is given
// in controller.go; sync.go, the level-triggered reconcile, is the file to
// complete. README.md says what to build and how the grader runs.
package labeler
