//go:build solution

package schedplugin

import (
	"context"

	"kubeloop/scheduler/framework"
)

// Filter compares against the exact string "true", as Kubernetes does for
// boolean-looking labels: "True" or "yes" are just other values.
func (NodeLabelPreference) Filter(_ context.Context, _ *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	if nodeInfo.Node().Labels[MaintenanceLabel] == "true" {
		return framework.NewStatus(framework.Unschedulable, ErrReasonMaintenance)
	}
	return nil
}

// Score is all or nothing. Its weight, set where the plugin is registered,
// decides how much the preference counts against the default plugins'
// spreading scores.
func (NodeLabelPreference) Score(_ context.Context, _ *framework.PodInfo, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	if nodeInfo.Node().Labels[DiskLabel] == PreferredDisk {
		return framework.MaxNodeScore, nil
	}
	return framework.MinNodeScore, nil
}
