// Package queue is exercise 4: the basic work queue of every controller, a
// FIFO of keys plus two sets, dirty (the key needs work) and processing (a
// worker has it), and the rules between them that let many workers share
// one queue without two of them ever holding the same key, and without
// losing an Add that arrives while a key is being worked on. skeleton.go
// declares the state; queue.go, the five methods that change it, is the
// file to complete. README.md says what to build and how the grader runs.
package queue
