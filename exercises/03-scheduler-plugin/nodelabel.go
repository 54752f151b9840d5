//go:build !solution

package schedplugin

import (
	"context"

	"kubeloop/scheduler/framework"
)

// This is your file. Write Filter and Score; keep the signatures.
// Run the grader with: go test -tags exercise ./exercises/03-scheduler-plugin/

// Filter rejects a node labelled MaintenanceLabel=true with an
// Unschedulable status whose reason is ErrReasonMaintenance
// (framework.NewStatus). Any other node passes: return nil, which means
// Success. The node is nodeInfo.Node(); do not change it, it is shared.
func (NodeLabelPreference) Filter(_ context.Context, pod *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	// TODO: read the node's labels. (The stub fails every node with an
	// Error, so the grader can tell "not written yet" from "wrong".)
	return framework.NewStatus(framework.Error, ErrNotImplemented)
}

// Score returns framework.MaxNodeScore for a node labelled
// DiskLabel=PreferredDisk and framework.MinNodeScore for any other node,
// with a nil (Success) status.
func (NodeLabelPreference) Score(_ context.Context, pod *framework.PodInfo, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	// TODO: read the node's labels.
	return 0, nil
}
