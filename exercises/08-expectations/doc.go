// Package expectations is exercise 8: the ReplicaSet controller's
// expectations. A controller's informer cache trails its own writes: right
// after creating five pods, a sync still sees none and would create five
// more (a "create storm"), and right after deleting three it would delete
// them again. Expectations remember what the controller asked for and has
// not yet seen come back through the watch, and hold back the next round
// until it has. controller.go and sync.go are a trimmed ReplicaSet
// controller that uses them; expectations.go is the file to complete.
// README.md says what to build and how the grader runs.
package expectations
