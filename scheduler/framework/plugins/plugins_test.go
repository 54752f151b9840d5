package plugins

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/scheduler/framework"
)

func node(name, cpu, mem, pods string) *api.Node {
	return &api.Node{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status: api.NodeStatus{
			Allocatable: api.ResourceList{api.ResourceCPU: api.Quantity(cpu), api.ResourceMemory: api.Quantity(mem), api.ResourcePods: api.Quantity(pods)},
			Conditions:  []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}},
		},
	}
}

func pod(name, cpu, mem string) *api.Pod {
	req := api.ResourceList{}
	if cpu != "" {
		req[api.ResourceCPU] = api.Quantity(cpu)
	}
	if mem != "" {
		req[api.ResourceMemory] = api.Quantity(mem)
	}
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns", UID: "uid-" + name},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: req}}}},
	}
}

func nodeInfo(n *api.Node, pods ...*api.Pod) *framework.NodeInfo {
	ni := framework.NewNodeInfo(pods...)
	ni.SetNode(n)
	return ni
}

func TestNodeResourcesFitReportsEveryShortResource(t *testing.T) {
	cases := []struct {
		name     string
		pod      *api.Pod
		node     *framework.NodeInfo
		expected []string
	}{
		{"fits on an empty node", pod("p", "1", "1Gi"), nodeInfo(node("n", "2", "2Gi", "10")), nil},
		{"fits exactly", pod("p", "1", "1Gi"), nodeInfo(node("n", "2", "2Gi", "10"), pod("a", "1", "1Gi")), nil},
		{"cpu short", pod("p", "1500m", "1Gi"), nodeInfo(node("n", "2", "2Gi", "10"), pod("a", "1", "")), []string{ErrReasonInsufficientCPU}},
		{"memory short", pod("p", "100m", "2Gi"), nodeInfo(node("n", "2", "2Gi", "10"), pod("a", "", "1Gi")), []string{ErrReasonInsufficientMemory}},
		{"pods, cpu and memory short", pod("p", "3", "3Gi"), nodeInfo(node("n", "2", "2Gi", "1"), pod("a", "", "")),
			[]string{ErrReasonTooManyPods, ErrReasonInsufficientCPU, ErrReasonInsufficientMemory}},
		{"no requests fit a full node", pod("p", "", ""), nodeInfo(node("n", "1", "1Gi", "10"), pod("a", "1", "1Gi")), nil},
		{"no pods allocatable means no room", pod("p", "", ""), nodeInfo(node("n", "1", "1Gi", "0")), []string{ErrReasonTooManyPods}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := NodeResourcesFit{}.Filter(context.Background(), framework.NewPodInfo(tc.pod), tc.node)
			assert.Equal(t, tc.expected, st.Reasons())
			assert.Equal(t, tc.expected == nil, st.IsSuccess())
		})
	}
}

func TestNodeUnschedulableAndNodeReady(t *testing.T) {
	cordoned := node("n", "1", "1Gi", "10")
	cordoned.Spec.Unschedulable = true
	notReady := node("n", "1", "1Gi", "10")
	notReady.Status.Conditions[0].Status = api.ConditionFalse
	unknown := node("n", "1", "1Gi", "10")
	unknown.Status.Conditions = nil
	tolerant := pod("t", "", "")
	tolerant.Spec.Tolerations = []api.Toleration{{Operator: api.TolerationOpExists}}

	cases := []struct {
		name   string
		plugin framework.FilterPlugin
		pod    *api.Pod
		node   *api.Node
		reason string
	}{
		{"schedulable node", NodeUnschedulable{}, pod("p", "", ""), node("n", "1", "1Gi", "10"), ""},
		{"cordoned node", NodeUnschedulable{}, pod("p", "", ""), cordoned, ErrReasonUnschedulable},
		{"cordoned node, tolerated", NodeUnschedulable{}, tolerant, cordoned, ""},
		{"ready node", NodeReady{}, pod("p", "", ""), node("n", "1", "1Gi", "10"), ""},
		{"not ready node", NodeReady{}, pod("p", "", ""), notReady, ErrReasonNotReady},
		{"node without a Ready condition", NodeReady{}, pod("p", "", ""), unknown, ErrReasonNotReady},
		{"not ready node, tolerated", NodeReady{}, tolerant, notReady, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.plugin.Filter(context.Background(), framework.NewPodInfo(tc.pod), nodeInfo(tc.node))
			assert.Equal(t, tc.reason, st.Message())
		})
	}
}

func TestTaintTolerationRejectsUntoleratedNoScheduleAndNoExecute(t *testing.T) {
	tainted := func(effect api.TaintEffect) *api.Node {
		n := node("n", "1", "1Gi", "10")
		n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "gpu", Effect: effect}}
		return n
	}
	withTol := func(tols ...api.Toleration) *api.Pod {
		p := pod("p", "", "")
		p.Spec.Tolerations = tols
		return p
	}
	cases := []struct {
		name     string
		pod      *api.Pod
		node     *api.Node
		rejected bool
	}{
		{"no taints", withTol(), node("n", "1", "1Gi", "10"), false},
		{"NoSchedule untolerated", withTol(), tainted(api.TaintEffectNoSchedule), true},
		{"NoExecute untolerated", withTol(), tainted(api.TaintEffectNoExecute), true},
		{"PreferNoSchedule is only a preference", withTol(), tainted(api.TaintEffectPreferNoSchedule), false},
		{"Equal with the value", withTol(api.Toleration{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule}), tainted(api.TaintEffectNoSchedule), false},
		{"Equal with another value", withTol(api.Toleration{Key: "dedicated", Value: "cpu"}), tainted(api.TaintEffectNoSchedule), true},
		{"Exists on the key, any effect", withTol(api.Toleration{Key: "dedicated", Operator: api.TolerationOpExists}), tainted(api.TaintEffectNoExecute), false},
		{"another effect", withTol(api.Toleration{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoExecute}), tainted(api.TaintEffectNoSchedule), true},
		{"Exists with no key tolerates everything", withTol(api.Toleration{Operator: api.TolerationOpExists}), tainted(api.TaintEffectNoSchedule), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := TaintToleration{}.Filter(context.Background(), framework.NewPodInfo(tc.pod), nodeInfo(tc.node))
			if tc.rejected {
				assert.Equal(t, []string{ErrReasonUntoleratedTaint}, st.Reasons())
			} else {
				assert.True(t, st.IsSuccess(), st.Message())
			}
		})
	}
}

func TestNodeAffinityMatchesSelectorAndRequiredTerms(t *testing.T) {
	n := node("node-a", "1", "1Gi", "10")
	n.Labels["disk"] = "ssd"
	n.Labels["gen"] = "5"
	withTerms := func(terms ...api.NodeSelectorTerm) *api.Pod {
		p := pod("p", "", "")
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: terms}}}
		return p
	}
	expr := func(key string, op api.NodeSelectorOperator, values ...string) api.NodeSelectorTerm {
		return api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: key, Operator: op, Values: values}}}
	}
	selector := func(sel map[string]string) *api.Pod {
		p := pod("p", "", "")
		p.Spec.NodeSelector = sel
		return p
	}
	cases := []struct {
		name  string
		pod   *api.Pod
		match bool
	}{
		{"no constraints", pod("p", "", ""), true},
		{"selector matches", selector(map[string]string{"disk": "ssd"}), true},
		{"selector value differs", selector(map[string]string{"disk": "hdd"}), false},
		{"selector label missing", selector(map[string]string{"zone": "a"}), false},
		{"In", withTerms(expr("disk", api.NodeSelectorOpIn, "hdd", "ssd")), true},
		{"In, no value matches", withTerms(expr("disk", api.NodeSelectorOpIn, "hdd")), false},
		{"NotIn", withTerms(expr("disk", api.NodeSelectorOpNotIn, "hdd")), true},
		{"NotIn matches an absent label", withTerms(expr("zone", api.NodeSelectorOpNotIn, "a")), true},
		{"Exists", withTerms(expr("disk", api.NodeSelectorOpExists)), true},
		{"DoesNotExist", withTerms(expr("disk", api.NodeSelectorOpDoesNotExist)), false},
		{"Gt", withTerms(expr("gen", api.NodeSelectorOpGt, "4")), true},
		{"Gt, equal", withTerms(expr("gen", api.NodeSelectorOpGt, "5")), false},
		{"Lt", withTerms(expr("gen", api.NodeSelectorOpLt, "6")), true},
		{"Lt, not a number", withTerms(expr("gen", api.NodeSelectorOpLt, "six")), false},
		{"terms are ORed", withTerms(expr("disk", api.NodeSelectorOpIn, "hdd"), expr("gen", api.NodeSelectorOpExists)), true},
		{"expressions are ANDed", withTerms(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{
			{Key: "disk", Operator: api.NodeSelectorOpExists}, {Key: "zone", Operator: api.NodeSelectorOpExists}}}), false},
		{"matchFields on the name", withTerms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{
			{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"node-a"}}}}), true},
		{"an empty term matches nothing", withTerms(api.NodeSelectorTerm{}), false},
		{"no terms match nothing", withTerms(), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := NodeAffinity{}.Filter(context.Background(), framework.NewPodInfo(tc.pod), nodeInfo(n))
			if tc.match {
				assert.True(t, st.IsSuccess(), st.Message())
			} else {
				assert.Equal(t, []string{ErrReasonNodeAffinity}, st.Reasons())
			}
		})
	}
}

func TestLeastAllocatedPrefersEmptierNodes(t *testing.T) {
	cases := []struct {
		name     string
		pod      *api.Pod
		node     *framework.NodeInfo
		expected int64
	}{
		// cpu (4000-1000)/4000 = 75, memory (4Gi-1Gi)/4Gi = 75.
		{"empty node", pod("p", "1", "1Gi"), nodeInfo(node("n", "4", "4Gi", "10")), 75},
		// cpu (4000-3000) = 25, memory (4-3) = 25.
		{"half full node", pod("p", "1", "1Gi"), nodeInfo(node("n", "4", "4Gi", "10"), pod("a", "2", "2Gi")), 25},
		// A pod with no requests counts as 100m and 200Mi: cpu 97 (97.5
		// truncated), memory (4096-200)/4096 = 95 → (97+95)/2 = 96.
		{"no requests use the defaults", pod("p", "", ""), nodeInfo(node("n", "4", "4Gi", "10")), 96},
		{"over-committed resource scores 0", pod("p", "8", "1Gi"), nodeInfo(node("n", "4", "4Gi", "10")), 37},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, st := NodeResourcesFit{}.Score(context.Background(), framework.NewPodInfo(tc.pod), tc.node)
			require.True(t, st.IsSuccess())
			assert.Equal(t, tc.expected, s)
		})
	}
}

func TestBalancedAllocationPrefersEvenUse(t *testing.T) {
	cases := []struct {
		name     string
		pod      *api.Pod
		node     *framework.NodeInfo
		expected int64
	}{
		{"same share of cpu and memory", pod("p", "1", "1Gi"), nodeInfo(node("n", "4", "4Gi", "10")), 100},
		// cpu 2/4 = 0.5, memory 0/4; std 0.25 → 75.
		{"cpu only", pod("p", "2", ""), nodeInfo(node("n", "4", "4Gi", "10")), 75},
		// after placing: cpu 3/4, memory 1/4 → std 0.25 → 75.
		{"existing pods count", pod("p", "1", "1Gi"), nodeInfo(node("n", "4", "4Gi", "10"), pod("a", "2", "")), 75},
		{"best-effort pods score 0 everywhere", pod("p", "", ""), nodeInfo(node("n", "4", "4Gi", "10")), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, st := BalancedAllocation{}.Score(context.Background(), framework.NewPodInfo(tc.pod), tc.node)
			require.True(t, st.IsSuccess())
			assert.Equal(t, tc.expected, s)
		})
	}
}

func TestDefaultRegistryBuildsAFramework(t *testing.T) {
	fwk, err := framework.NewFramework(Default())
	require.NoError(t, err)
	assert.True(t, fwk.HasScorePlugins())

	// The first failing filter names the node's reason: a cordoned node
	// that is also full reports only "unschedulable".
	n := node("n", "1", "1Gi", "10")
	n.Spec.Unschedulable = true
	st := fwk.RunFilterPlugins(context.Background(), framework.NewPodInfo(pod("p", "2", "")), nodeInfo(n))
	assert.Equal(t, "NodeUnschedulable", st.Plugin())
	assert.Equal(t, []string{ErrReasonUnschedulable}, st.Reasons())
}
