package kubelet

// Skip on a first reading: the PLEG relists every period whatever happens;
// this only avoids a relist that cannot find anything new.
//
// A runtime that can tell when nothing has changed (the fake one:
// runtime/fake_revision.go) lets an idle node's PLEG skip the copy and
// comparison of every sandbox and container. Kubernetes' Evented PLEG goes
// further and takes change events from the CRI instead of relisting;
// GenericPLEG, which we follow, always relists.

// revisioner is the optional interface of a runtime that counts its
// changes; timeDependent means a change may come with time alone.
type revisioner interface {
	Revision() (revision uint64, timeDependent bool)
}

// unchanged reports whether the runtime is where the last completed
// relist saw it, and the revision a relist now starts from (read before
// listing, so a change during the list makes the next relist list again).
func (g *pleg) unchanged() (bool, uint64) {
	r, ok := g.runtime.(revisioner)
	if !ok {
		return false, 0
	}
	rev, timeDependent := r.Revision()
	return g.listed && rev == g.revision && !timeDependent, rev
}
