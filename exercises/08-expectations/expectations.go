//go:build !solution

package expectations

// This is your file. Write the five methods; keep the signatures.
// Run the grader with: go test -tags exercise ./exercises/08-expectations/

// SatisfiedExpectations reports whether the controller may act on its
// cache for key: nothing is expected for it, or every expected creation
// and deletion was observed (the counts are at or below zero), or the
// expectations are older than ExpectationsTimeout (use r.clock).
//
// The stub says yes, always: that is a controller without expectations,
// and the grader shows what it does.
func (r *ControllerExpectations) SatisfiedExpectations(key string) bool {
	// TODO
	return true
}

// ExpectCreations records that n pods are about to be created for key. It
// replaces whatever key expected before (the controller only sets new
// expectations once the old ones are satisfied or expired), with the time
// from r.clock.
func (r *ControllerExpectations) ExpectCreations(key string, n int) {
	// TODO
}

// ExpectDeletions records that the pods podKeys are about to be deleted
// for key, replacing whatever key expected before.
func (r *ControllerExpectations) ExpectDeletions(key string, podKeys []string) {
	// TODO
}

// CreationObserved lowers the creations key expects by one: the informer
// saw one of its pods appear (or a create was given up on). Nothing
// happens for a key with no expectations.
func (r *ControllerExpectations) CreationObserved(key string) {
	// TODO
}

// DeletionObserved lowers the deletions key expects by one if podKey is
// one of the pods it waits for, and forgets podKey, so that the same pod
// observed twice counts once. Any other podKey changes nothing.
func (r *ControllerExpectations) DeletionObserved(key, podKey string) {
	// TODO
}
