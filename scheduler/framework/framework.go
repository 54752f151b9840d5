package framework

import (
	"context"
	"fmt"
)

// PluginEntry is one line of the plugin registry: the plugin and, if it
// scores, its weight (0 means 1).
type PluginEntry struct {
	Plugin Plugin
	Weight int64
}

// Framework runs the registered plugins at their extension points. It is
// stateless between calls and safe for concurrent use if the plugins are.
// Kubernetes: pkg/scheduler/framework/runtime/framework.go, frameworkImpl.
type Framework struct {
	filterPlugins []FilterPlugin
	scorePlugins  []ScorePlugin
	scoreWeights  map[string]int64
}

// NewFramework sorts the entries into filter and score plugins. The order
// of the entries is the order filters run in.
func NewFramework(entries []PluginEntry) (*Framework, error) {
	f := &Framework{scoreWeights: map[string]int64{}}
	seen := map[string]bool{}
	for _, e := range entries {
		name := e.Plugin.Name()
		if seen[name] {
			return nil, fmt.Errorf("framework: plugin %q registered twice", name)
		}
		seen[name] = true
		fp, isFilter := e.Plugin.(FilterPlugin)
		sp, isScore := e.Plugin.(ScorePlugin)
		if !isFilter && !isScore {
			return nil, fmt.Errorf("framework: plugin %q is neither a filter nor a score plugin", name)
		}
		if isFilter {
			f.filterPlugins = append(f.filterPlugins, fp)
		}
		if isScore {
			w := e.Weight
			if w == 0 {
				w = 1
			}
			if w < 0 {
				return nil, fmt.Errorf("framework: plugin %q has negative weight %d", name, w)
			}
			f.scorePlugins = append(f.scorePlugins, sp)
			f.scoreWeights[name] = w
		}
	}
	return f, nil
}

// HasScorePlugins tells schedulePod whether scoring can change anything.
func (f *Framework) HasScorePlugins() bool { return len(f.scorePlugins) > 0 }

// RunFilterPlugins runs the filters in order on one node and returns the
// first non-success status, as Kubernetes does: the diagnosis of a node
// names the first plugin that rejected it, not all of them.
func (f *Framework) RunFilterPlugins(ctx context.Context, pod *PodInfo, nodeInfo *NodeInfo) *Status {
	for _, pl := range f.filterPlugins {
		if st := pl.Filter(ctx, pod, nodeInfo); !st.IsSuccess() {
			return st.WithPlugin(pl.Name())
		}
	}
	return nil
}

// RunScorePlugins scores every node with every score plugin, normalizes,
// applies the weights and returns the total per node, in the order of
// nodes.
func (f *Framework) RunScorePlugins(ctx context.Context, pod *PodInfo, nodes []*NodeInfo) (NodeScoreList, *Status) {
	totals := make(NodeScoreList, len(nodes))
	for i, n := range nodes {
		totals[i].Name = n.Node().Name
	}
	scores := make(NodeScoreList, len(nodes))
	for _, pl := range f.scorePlugins {
		for i, n := range nodes {
			s, st := pl.Score(ctx, pod, n)
			if !st.IsSuccess() {
				return nil, AsStatus(fmt.Errorf("plugin %q failed with: %w", pl.Name(), st.AsError()))
			}
			scores[i] = NodeScore{Name: totals[i].Name, Score: s}
		}
		if ext := pl.ScoreExtensions(); ext != nil {
			if st := ext.NormalizeScore(ctx, pod, scores); !st.IsSuccess() {
				return nil, AsStatus(fmt.Errorf("plugin %q failed to normalize: %w", pl.Name(), st.AsError()))
			}
		}
		w := f.scoreWeights[pl.Name()]
		for i := range scores {
			if scores[i].Score < MinNodeScore || scores[i].Score > MaxNodeScore {
				return nil, AsStatus(fmt.Errorf("plugin %q returned score %d for node %q, outside [%d, %d]",
					pl.Name(), scores[i].Score, scores[i].Name, MinNodeScore, MaxNodeScore))
			}
			totals[i].Score += scores[i].Score * w
		}
	}
	return totals, nil
}
