package plugins

import "kubeloop/scheduler/framework"

// Default is the plugin registry: every plugin the scheduler runs, in the
// order the filters run (cheapest and most decisive first, as in
// Kubernetes' default profile), with the weight of the scoring ones.
// Adding a plugin is one file in this package and one line here.
func Default() []framework.PluginEntry {
	return []framework.PluginEntry{
		{Plugin: NodeUnschedulable{}},
		{Plugin: NodeReady{}},
		{Plugin: TaintToleration{}},
		{Plugin: NodeAffinity{}},
		{Plugin: NodeResourcesFit{}, Weight: 1},
		{Plugin: BalancedAllocation{}, Weight: 1},
	}
}
