package runtime

// Skip on a first reading: this lets the kubelet's PLEG skip a relist that
// could not find anything new; relisting every time gives the same events.
//
// A thousand simulated nodes relist their runtime a thousand times a second
// between them, and each relist copies every sandbox and container to
// compare states that, on an idle node, have not moved. The 1000-node
// profile of issue 20 had 10% of the cluster's CPU there. A real runtime
// cannot promise that nothing changed (a process may die at any time);
// the fake can: only its own calls and planned exits change its state.

// Revision returns a number that changes whenever a call may have changed
// what ListPodSandbox or ListContainers return, and whether some change is
// pending on time alone (a running container with a planned exit): then
// the revision says nothing and the caller must list.
func (f *Fake) Revision() (revision uint64, timeDependent bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.containers {
		if c.State == ContainerRunning && c.exitAfter != nil {
			return f.revision, true
		}
	}
	return f.revision, false
}
