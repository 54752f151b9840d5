package framework

import (
	"context"
	"errors"
	"strings"
)

// The bounds of a node score, as in Kubernetes: a Score plugin returns a
// value in [MinNodeScore, MaxNodeScore], or NormalizeScore brings it there.
const (
	MinNodeScore int64 = 0
	MaxNodeScore int64 = 100
)

// Code is the outcome of one plugin call.
type Code int

// The codes kubeloop uses. Kubernetes also has UnschedulableAndUnresolvable
// (preemption would not help), Wait, Skip and Pending; without preemption,
// permit or queueing hints none of them would change what we do.
const (
	// Success: the node passes (or the score is valid).
	Success Code = iota
	// Unschedulable: the node does not fit the pod; Reasons say why.
	Unschedulable
	// Error: the plugin could not decide; the scheduling attempt fails
	// with an error instead of a FitError.
	Error
)

// Status is what a plugin reports. A nil *Status means Success, so the
// happy path allocates nothing.
type Status struct {
	code    Code
	reasons []string
	err     error
	plugin  string
}

// NewStatus makes a status with the given code and reasons.
func NewStatus(code Code, reasons ...string) *Status {
	s := &Status{code: code, reasons: reasons}
	if code == Error {
		s.err = errors.New(s.Message())
	}
	return s
}

// AsStatus wraps an error into an Error status.
func AsStatus(err error) *Status {
	if err == nil {
		return nil
	}
	return &Status{code: Error, reasons: []string{err.Error()}, err: err}
}

// Code returns the code; nil is Success.
func (s *Status) Code() Code {
	if s == nil {
		return Success
	}
	return s.code
}

// IsSuccess is true for nil and for Success.
func (s *Status) IsSuccess() bool { return s.Code() == Success }

// IsUnschedulable is true when the node does not fit.
func (s *Status) IsUnschedulable() bool { return s.Code() == Unschedulable }

// Reasons are the short strings a FitError counts ("Insufficient cpu").
func (s *Status) Reasons() []string {
	if s == nil {
		return nil
	}
	return s.reasons
}

// Message joins the reasons.
func (s *Status) Message() string {
	if s == nil {
		return ""
	}
	return strings.Join(s.reasons, ", ")
}

// AsError returns the status as an error, or nil for Success.
func (s *Status) AsError() error {
	if s.IsSuccess() {
		return nil
	}
	if s.err != nil {
		return s.err
	}
	return errors.New(s.Message())
}

// Plugin is the name of the plugin that returned the status.
func (s *Status) Plugin() string {
	if s == nil {
		return ""
	}
	return s.plugin
}

// WithPlugin records which plugin returned the status.
func (s *Status) WithPlugin(name string) *Status {
	if s != nil {
		s.plugin = name
	}
	return s
}

// Plugin is what every plugin is: a name, used in logs and diagnoses.
type Plugin interface {
	Name() string
}

// FilterPlugin decides whether a pod may run on a node. It must not change
// the pod or the NodeInfo: both are shared with the rest of the cycle.
//
// Plugins receive a PodInfo, the pod with its requests already summed.
// Kubernetes passes the *v1.Pod and has plugins compute such things once
// per cycle in PreFilter/PreScore, kept in a CycleState; we have neither
// extension point, and parsing quantities per node per plugin was most of
// a scheduling cycle's cost.
// Kubernetes: pkg/scheduler/framework/interface.go, FilterPlugin.
type FilterPlugin interface {
	Plugin
	Filter(ctx context.Context, pod *PodInfo, nodeInfo *NodeInfo) *Status
}

// ScorePlugin ranks a node that passed every filter. Higher is better.
// ScoreExtensions returns nil when the plugin's scores are already in
// [MinNodeScore, MaxNodeScore].
type ScorePlugin interface {
	Plugin
	Score(ctx context.Context, pod *PodInfo, nodeInfo *NodeInfo) (int64, *Status)
	ScoreExtensions() ScoreExtensions
}

// ScoreExtensions lets a score plugin rescale its raw scores once every
// feasible node has one (for example "fewest untolerated taints" turned
// into 0..100).
type ScoreExtensions interface {
	NormalizeScore(ctx context.Context, pod *PodInfo, scores NodeScoreList) *Status
}

// NodeScore is one node's score.
type NodeScore struct {
	Name  string
	Score int64
}

// NodeScoreList holds one score per feasible node, in the order of the
// feasible nodes.
type NodeScoreList []NodeScore
