// Package fifo is exercise 6: the two rules of the DeltaFIFO that keep an
// informer's cache honest about deletions. Two deletions in a row of one
// object are one deletion (a relist's tombstone and the late watch event
// report the same one), and a relist (Replace) that no longer contains an
// object the consumer knows records its deletion with a
// DeletedFinalStateUnknown tombstone, since nobody saw it happen.
// skeleton.go is the queue; replace.go, dedupDeltas and Replace, is the
// file to complete. README.md says what to build and how the grader runs.
package fifo
