package framework

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestFitErrorCountsAndSortsReasonsLikeKubernetes(t *testing.T) {
	fe := &FitError{NumAllNodes: 12, Diagnosis: Diagnosis{NodeToStatus: map[string]*Status{}}}
	for i := range 10 {
		fe.Diagnosis.NodeToStatus[string(rune('a'+i))] = NewStatus(Unschedulable, "Insufficient memory")
	}
	fe.Diagnosis.NodeToStatus["x"] = NewStatus(Unschedulable, "Insufficient cpu", "Insufficient memory")
	fe.Diagnosis.NodeToStatus["y"] = NewStatus(Unschedulable, "node(s) were unschedulable")
	// The "<count> <reason>" strings compare as text,
	// so "1 Insufficient cpu" < "1 node(s)..." < "11 Insufficient memory".
	assert.Equal(t, "0/12 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable, 11 Insufficient memory.", fe.Error())

	none := &FitError{NumAllNodes: 0, Diagnosis: Diagnosis{NodeToStatus: map[string]*Status{}}}
	assert.Equal(t, "0/0 nodes are available:", none.Error())
}

// constScore scores every node with the length of its name, and
// normalizes by doubling if asked.
type constScore struct {
	name      string
	normalize bool
}

func (c constScore) Name() string { return c.name }
func (c constScore) Score(_ context.Context, _ *PodInfo, n *NodeInfo) (int64, *Status) {
	return int64(len(n.Node().Name)), nil
}
func (c constScore) ScoreExtensions() ScoreExtensions {
	if c.normalize {
		return c
	}
	return nil
}
func (c constScore) NormalizeScore(_ context.Context, _ *PodInfo, scores NodeScoreList) *Status {
	for i := range scores {
		scores[i].Score *= 2
	}
	return nil
}

func TestRunScorePluginsNormalizesThenWeights(t *testing.T) {
	fwk, err := NewFramework([]PluginEntry{
		{Plugin: constScore{name: "plain"}}, // weight 0 means 1
		{Plugin: constScore{name: "doubled", normalize: true}, Weight: 3},
	})
	require.NoError(t, err)
	mk := func(name string) *NodeInfo {
		n := NewNodeInfo()
		n.SetNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: name}})
		return n
	}
	scores, st := fwk.RunScorePlugins(context.Background(), NewPodInfo(&api.Pod{}), []*NodeInfo{mk("a"), mk("bbb")})
	require.True(t, st.IsSuccess())
	assert.Equal(t, NodeScoreList{{Name: "a", Score: 1 + 2*3}, {Name: "bbb", Score: 3 + 6*3}}, scores)
}

func TestNewFrameworkRejectsDuplicatesAndNonPlugins(t *testing.T) {
	_, err := NewFramework([]PluginEntry{{Plugin: constScore{name: "x"}}, {Plugin: constScore{name: "x"}}})
	assert.ErrorContains(t, err, "registered twice")
	_, err = NewFramework([]PluginEntry{{Plugin: namedOnly{}}})
	assert.ErrorContains(t, err, "neither a filter nor a score plugin")
}

type namedOnly struct{}

func (namedOnly) Name() string { return "named" }

func TestNodeInfoCountsAndUncountsPods(t *testing.T) {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{UID: "u1", Name: "p"}, Spec: api.PodSpec{Containers: []api.Container{
		{Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: "250m"}}},
		{},
	}}}
	n := NewNodeInfo(p)
	assert.Equal(t, Resource{MilliCPU: 250}, n.Requested)
	// The second container asks for nothing: 100m and 200Mi when scoring;
	// the first has no memory request: another 200Mi.
	assert.Equal(t, Resource{MilliCPU: 350, Memory: 2 * DefaultMemoryRequest}, n.NonZeroRequested)
	require.NoError(t, n.RemovePod(p))
	assert.Equal(t, Resource{}, n.Requested)
	assert.Equal(t, Resource{}, n.NonZeroRequested)
	assert.Error(t, n.RemovePod(p))
}
