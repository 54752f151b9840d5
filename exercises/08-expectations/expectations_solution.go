//go:build solution

package expectations

// SatisfiedExpectations reads the entry under the lock and decides from a
// copy of its fields: an observation may land right after, which at worst
// makes this sync skip and the observation's own enqueue sync again.
func (r *ControllerExpectations) SatisfiedExpectations(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.expectations[key]
	switch {
	case !ok:
		return true
	case e.add <= 0 && e.del <= 0:
		return true
	case r.clock.Since(e.timestamp) > ExpectationsTimeout:
		r.log.Info("expectations expired", "key", key, "add", e.add, "del", e.del)
		return true
	default:
		return false
	}
}

// ExpectCreations replaces rather than adds: a leftover from the last
// round (an extra observation, an expired wait) must not change this one.
func (r *ControllerExpectations) ExpectCreations(key string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.expectations[key] = &controlleeExpectations{add: int64(n), timestamp: r.clock.Now()}
}

// ExpectDeletions counts distinct pods: the set is the count.
func (r *ControllerExpectations) ExpectDeletions(key string, podKeys []string) {
	set := make(map[string]struct{}, len(podKeys))
	for _, k := range podKeys {
		set[k] = struct{}{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.expectations[key] = &controlleeExpectations{del: int64(len(set)), deleteKeys: set, timestamp: r.clock.Now()}
}

func (r *ControllerExpectations) CreationObserved(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.expectations[key]; ok {
		e.add--
	}
}

// DeletionObserved removes the pod from the set as it counts it, which is
// what makes a second observation of the same pod a no-op.
func (r *ControllerExpectations) DeletionObserved(key, podKey string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.expectations[key]
	if !ok {
		return
	}
	if _, waiting := e.deleteKeys[podKey]; !waiting {
		return
	}
	delete(e.deleteKeys, podKey)
	e.del--
}
