//go:build exercise || solution

package schedplugin

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/scheduler/framework"
	"kubeloop/scheduler/framework/plugins"
)

// readyNode is a Ready node with 4 cpu and 8Gi, as a kubelet would report.
func readyNode(name string, labels map[string]string) *api.Node {
	res := api.ResourceList{api.ResourceCPU: "4", api.ResourceMemory: "8Gi", api.ResourcePods: "110"}
	return &api.Node{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: labels},
		Status: api.NodeStatus{
			Capacity:    res,
			Allocatable: res,
			Conditions:  []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}},
		},
	}
}

func nodeInfo(name string, labels map[string]string) *framework.NodeInfo {
	n := framework.NewNodeInfo()
	n.SetNode(readyNode(name, labels))
	return n
}

func somePod() *framework.PodInfo {
	return framework.NewPodInfo(&api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
	})
}

func TestFilterRejectsNodeUnderMaintenance(t *testing.T) {
	st := NodeLabelPreference{}.Filter(context.Background(), somePod(), nodeInfo("n", map[string]string{MaintenanceLabel: "true"}))
	require.True(t, st.IsUnschedulable(), "want Unschedulable, got code %v", st.Code())
	assert.Equal(t, []string{ErrReasonMaintenance}, st.Reasons())
}

func TestFilterLetsOtherNodesThrough(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels map[string]string
	}{
		{"no labels at all", nil},
		{"unrelated labels", map[string]string{"zone": "a"}},
		{"maintenance=false", map[string]string{MaintenanceLabel: "false"}},
		{"ssd node", map[string]string{DiskLabel: PreferredDisk}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := NodeLabelPreference{}.Filter(context.Background(), somePod(), nodeInfo("n", tc.labels))
			assert.True(t, st.IsSuccess(), "want Success, got %v: %s", st.Code(), st.Message())
		})
	}
}

func TestScorePrefersSSDNodes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   int64
	}{
		{"ssd", map[string]string{DiskLabel: PreferredDisk}, framework.MaxNodeScore},
		{"hdd", map[string]string{DiskLabel: "hdd"}, framework.MinNodeScore},
		{"no disk label", map[string]string{"zone": "a"}, framework.MinNodeScore},
		{"no labels at all", nil, framework.MinNodeScore},
		// Score sees only nodes that passed every filter; it does not filter
		// again.
		{"ssd under maintenance", map[string]string{DiskLabel: PreferredDisk, MaintenanceLabel: "true"}, framework.MaxNodeScore},
	} {
		t.Run(tc.name, func(t *testing.T) {
			score, st := NodeLabelPreference{}.Score(context.Background(), somePod(), nodeInfo("n", tc.labels))
			require.True(t, st.IsSuccess(), "want Success, got %v: %s", st.Code(), st.Message())
			assert.Equal(t, tc.want, score)
		})
	}
}

// withPlugin is the scheduler's registry: the default plugins, then ours.
func withPlugin() []framework.PluginEntry {
	return append(plugins.Default(), framework.PluginEntry{Plugin: NodeLabelPreference{}, Weight: 1})
}

// Through the framework, as the scheduler calls it: the rejecting filter
// is named in the status, and on two nodes equal in all but the disk the
// SSD node wins by exactly the plugin's score.
func TestFrameworkRunsThePluginAfterTheDefaults(t *testing.T) {
	fwk, err := framework.NewFramework(withPlugin())
	require.NoError(t, err)
	ctx, pod := context.Background(), somePod()

	st := fwk.RunFilterPlugins(ctx, pod, nodeInfo("maint", map[string]string{MaintenanceLabel: "true"}))
	require.True(t, st.IsUnschedulable(), "the maintenance node must fail the filters")
	assert.Equal(t, Name, st.Plugin())

	ssd := nodeInfo("fast", map[string]string{DiskLabel: PreferredDisk})
	hdd := nodeInfo("slow", map[string]string{DiskLabel: "hdd"})
	require.True(t, fwk.RunFilterPlugins(ctx, pod, ssd).IsSuccess())
	require.True(t, fwk.RunFilterPlugins(ctx, pod, hdd).IsSuccess())
	scores, st := fwk.RunScorePlugins(ctx, pod, []*framework.NodeInfo{ssd, hdd})
	require.True(t, st.IsSuccess(), st.Message())
	assert.Equal(t, framework.MaxNodeScore, scores[0].Score-scores[1].Score)
}
