package replicaset

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// podSpec describes a crafted pod for the ranking table.
type podSpec struct {
	node     string
	phase    api.PodPhase
	ready    bool
	readyAt  time.Time
	cost     string
	restarts int32
	created  time.Time
	uid      string
}

func craftPod(s podSpec) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p-" + s.uid, Namespace: "ns", UID: s.uid}}
	p.Spec.NodeName = s.node
	p.Status.Phase = s.phase
	if p.Status.Phase == "" {
		p.Status.Phase = api.PodRunning
	}
	if s.ready {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.Time{Time: s.readyAt}}}
	}
	if s.cost != "" {
		p.Annotations = map[string]string{PodDeletionCostAnnotation: s.cost}
	}
	p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "c", RestartCount: s.restarts}}
	p.CreationTimestamp = api.Time{Time: s.created}
	return p
}

func TestScaleDownRankingFollowsKubernetesOrder(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	old := now.Add(-24 * time.Hour)
	base := podSpec{node: "n1", phase: api.PodRunning, ready: true, readyAt: old, created: old}
	with := func(f func(*podSpec)) podSpec { s := base; f(&s); return s }

	// Each row: first is deleted before second, and the rows differ only in
	// the rule under test (every earlier rule ties).
	cases := []struct {
		rule          string
		first, second podSpec
		rankFirst     int
		rankSecond    int
	}{
		{rule: "1 unassigned before assigned",
			first: with(func(s *podSpec) { s.node = "" }), second: base},
		{rule: "2 pending before unknown",
			first: with(func(s *podSpec) { s.phase = api.PodPending; s.ready = false }), second: with(func(s *podSpec) { s.phase = api.PodUnknown; s.ready = false })},
		{rule: "2 unknown before running",
			first: with(func(s *podSpec) { s.phase = api.PodUnknown; s.ready = false }), second: with(func(s *podSpec) { s.ready = false })},
		{rule: "3 not ready before ready",
			first: with(func(s *podSpec) { s.ready = false }), second: base},
		{rule: "4 lower deletion cost first",
			first: with(func(s *podSpec) { s.cost = "-5" }), second: with(func(s *podSpec) { s.cost = "10" })},
		{rule: "4 absent cost is 0, below a positive one",
			first: base, second: with(func(s *podSpec) { s.cost = "1" })},
		{rule: "5 more pods on the same node first",
			first: base, second: base, rankFirst: 3, rankSecond: 1},
		{rule: "6 more recently ready first",
			first: with(func(s *podSpec) { s.readyAt = now.Add(-time.Minute) }), second: with(func(s *podSpec) { s.readyAt = now.Add(-10 * time.Hour) })},
		{rule: "7 more restarts first",
			first: with(func(s *podSpec) { s.restarts = 5 }), second: with(func(s *podSpec) { s.restarts = 1 })},
		{rule: "8 newer first",
			first: with(func(s *podSpec) { s.created = now.Add(-time.Minute) }), second: with(func(s *podSpec) { s.created = now.Add(-10 * time.Hour) })},
		{rule: "8 same age bucket: lower UID first",
			first: with(func(s *podSpec) { s.created = old.Add(time.Second); s.uid = "a" }), second: with(func(s *podSpec) { s.uid = "b" })},
		{rule: "1 beats 3: unassigned ready before assigned not ready",
			first: with(func(s *podSpec) { s.node = "" }), second: with(func(s *podSpec) { s.ready = false })},
		{rule: "4 beats 5: cost decides before the node rank",
			first: with(func(s *podSpec) { s.cost = "-1" }), second: base, rankFirst: 1, rankSecond: 5},
	}
	for i, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			if c.first.uid == "" {
				c.first.uid = fmt.Sprintf("z%d-1", i)
			}
			if c.second.uid == "" {
				c.second.uid = fmt.Sprintf("z%d-0", i) // the UID tie-break would favour second
			}
			s := ActivePodsWithRanks{
				Pods: []*api.Pod{craftPod(c.first), craftPod(c.second)},
				Rank: []int{c.rankFirst, c.rankSecond},
				Now:  now,
			}
			assert.True(t, s.Less(0, 1), "first should go before second")
			assert.False(t, s.Less(1, 0), "second should not go before first")
		})
	}
}

func TestGetPodsToDeletePrefersCrowdedNodes(t *testing.T) {
	now := time.Now()
	old := now.Add(-time.Hour)
	mk := func(uid, node string) *api.Pod {
		return craftPod(podSpec{node: node, phase: api.PodRunning, ready: true, readyAt: old, created: old, uid: uid})
	}
	pods := []*api.Pod{mk("a", "n1"), mk("b", "n2"), mk("c", "n2"), mk("d", "n3"), mk("e", "n2"), mk("f", "")}
	got := getPodsToDelete(pods, pods, 3, now)
	require.Len(t, got, 3)
	var names []string
	for _, p := range got {
		names = append(names, p.UID)
	}
	assert.Equal(t, "f", names[0], "the unscheduled pod goes first")
	for _, n := range names[1:] {
		assert.Contains(t, []string{"b", "c", "e"}, n, "then pods of the crowded node n2")
	}
	assert.Equal(t, "a", pods[0].UID, "the caller's slice keeps its order")

	all := getPodsToDelete(pods, pods, 10, now)
	assert.Len(t, all, len(pods), "asking for more than there are returns them all")
}
