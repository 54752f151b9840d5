package watchcache

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

// podVersions stores n versions of one pod in w, each changing something a
// scale-up changes (the node, the phase, a condition), and returns a deep
// copy of each version as it was stored.
func podVersions(t *testing.T, w *watchCache, n int) []*api.Pod {
	var stored []*api.Pod
	for i := range n {
		p := sharedPod("a", fmt.Sprintf("node-%d", i/2))
		p.ResourceVersion = rvString(uint64(i + 2))
		p.Status.Phase = api.PodPhase(fmt.Sprintf("phase-%d", i))
		p.Status.Conditions = make([]api.PodCondition, i%3)
		typ := api.Modified
		if i == 0 {
			typ = api.Added
		}
		w.processEvent(typ, p, uint64(i+2), time.Now())
		stored = append(stored, p.DeepCopy())
	}
	return stored
}

func TestASupersededVersionReplaysAsItWasStored(t *testing.T) {
	info, _ := api.Builtin().ForResource("", "pods")
	w := newWatchCache(info, 100)
	w.replace(nil, 1)
	const n = 3*maxBehind + 2
	stored := podVersions(t, w, n)

	events := w.ring.since(1)
	require.Len(t, events, n)
	all := newFilter("", store.SelectionPredicate{})
	for i, ev := range events {
		we, ok := watchEventFor(ev, all)
		require.True(t, ok)
		require.Equal(t, stored[i], we.Object, "version %d replays deeply equal to what was stored", i)
		if i > 0 {
			require.Equal(t, stored[i-1], ev.prevObject(), "the state before event %d is the version before", i)
		}
	}
	require.Nil(t, events[0].Object, "an older version is not held whole")
	require.NotNil(t, events[n-1].Object, "the current version is")
	for _, ev := range events {
		require.LessOrEqual(t, ev.behind, maxBehind, "no version is rebuilt from more than maxBehind differences")
	}
}

func TestLeavingTheSelectorReplaysTheOldStateAtTheNewVersion(t *testing.T) {
	info, _ := api.Builtin().ForResource("", "pods")
	w := newWatchCache(info, 100)
	w.replace(nil, 1)
	stored := podVersions(t, w, 3)
	onNode0, err := api.ParseFieldSelector("spec.nodeName=node-0")
	require.NoError(t, err)
	f := newFilter("", store.SelectionPredicate{Field: onNode0})

	we, ok := watchEventFor(w.ring.since(3)[0], f)

	require.True(t, ok)
	require.Equal(t, api.Deleted, we.Type, "version 3 moved the pod to node-1")
	want := stored[1].DeepCopy()
	want.ResourceVersion = stored[2].ResourceVersion
	require.Equal(t, want, we.Object)
}
