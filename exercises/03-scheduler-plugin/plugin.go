package schedplugin

import "kubeloop/scheduler/framework"

// The labels the plugin reads.
const (
	// MaintenanceLabel=true takes a node out of scheduling: an operator is
	// about to work on it, and new pods should go elsewhere.
	MaintenanceLabel = "kubeloop.dev/maintenance"
	// DiskLabel=PreferredDisk marks the nodes pods should prefer.
	DiskLabel     = "disk"
	PreferredDisk = "ssd"
)

// ErrReasonMaintenance is the reason Filter gives for a node under
// maintenance. The scheduler counts reasons into the pod's condition:
// "0/3 nodes are available: 1 node(s) were under maintenance, ...".
const ErrReasonMaintenance = "node(s) were under maintenance"

// ErrNotImplemented is what the stub's Filter fails with; the scheduler
// reports it on the pod as a SchedulerError.
const ErrNotImplemented = "NodeLabelPreference.Filter is not written yet"

// Name is the plugin's name: it appears in diagnostics and must be unique
// among the scheduler's plugins.
const Name = "NodeLabelPreference"

// NodeLabelPreference keeps pods off nodes under maintenance and steers
// them to SSD nodes. It holds no state: the framework calls it from the
// scheduling loop, and everything it needs is in the node's labels.
type NodeLabelPreference struct{}

// The framework sorts plugins into extension points by these interfaces.
var (
	_ framework.FilterPlugin = NodeLabelPreference{}
	_ framework.ScorePlugin  = NodeLabelPreference{}
)

// Name names the plugin.
func (NodeLabelPreference) Name() string { return Name }

// ScoreExtensions is nil: Score already returns values in
// [framework.MinNodeScore, framework.MaxNodeScore], so nothing needs
// normalizing.
func (NodeLabelPreference) ScoreExtensions() framework.ScoreExtensions { return nil }
