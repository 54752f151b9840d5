package api

// DefaultSchedulerName is the scheduler a pod gets when it names none.
const DefaultSchedulerName = "default-scheduler"

// Toleration lets a pod schedule onto (or stay on) a node with a matching taint.
// It matches a taint's key, value and effect, comparing the value with its
// operator.
type Toleration struct {
	// Taint key to match; empty matches every key, and then the operator
	// must be Exists.
	Key string `json:"key,omitempty" protobuf:"bytes,1,opt,name=key"`
	// How the taint's value is compared: Equal (the default), Exists (any
	// value), or Lt and Gt (numeric comparisons, behind a feature gate).
	Operator TolerationOperator `json:"operator,omitempty" protobuf:"bytes,2,opt,name=operator"`
	// Taint value to match; must be empty when the operator is Exists.
	Value string `json:"value,omitempty" protobuf:"bytes,3,opt,name=value"`
	// Taint effect to match (NoSchedule, PreferNoSchedule or NoExecute);
	// empty matches every effect.
	Effect TaintEffect `json:"effect,omitempty" protobuf:"bytes,4,opt,name=effect"`
	// For a NoExecute toleration, how many seconds the pod may stay on the
	// node after the taint appears; unset means forever, zero or less means
	// evict at once. Ignored for other effects.
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty" protobuf:"varint,5,opt,name=tolerationSeconds"`
}

// TolerationOperator says how a toleration compares a taint's value: Equal
// compares the value, Exists ignores it, Lt and Gt compare it as a number.
type TolerationOperator string

// The toleration operators.
const (
	TolerationOpExists TolerationOperator = "Exists"
	TolerationOpEqual  TolerationOperator = "Equal"
	TolerationOpLt     TolerationOperator = "Lt"
	TolerationOpGt     TolerationOperator = "Gt"
)

// TopologySpreadConstraint limits how unevenly the pods matching a selector may
// be spread over the domains of a topology (the nodes sharing a value of one
// node label).
type TopologySpreadConstraint struct {
	// Largest allowed difference between the number of matching pods in a
	// domain and in the emptiest eligible domain. Required; at least 1.
	MaxSkew int32 `json:"maxSkew" protobuf:"varint,1,opt,name=maxSkew"`
	// Node label whose values define the domains, e.g.
	// "topology.kubernetes.io/zone" or "kubernetes.io/hostname". Required.
	TopologyKey string `json:"topologyKey" protobuf:"bytes,2,opt,name=topologyKey"`
	// What to do when no node keeps the skew within maxSkew: DoNotSchedule
	// leaves the pod pending, ScheduleAnyway only favours nodes that reduce
	// the skew. Required.
	WhenUnsatisfiable UnsatisfiableConstraintAction `json:"whenUnsatisfiable" protobuf:"bytes,3,opt,name=whenUnsatisfiable"`
	// Pods counted in each domain.
	LabelSelector *LabelSelector `json:"labelSelector,omitempty" protobuf:"bytes,4,opt,name=labelSelector" structType:"atomic"`
	// While fewer eligible domains than this exist, the emptiest domain
	// counts as holding zero pods. Must be positive and needs
	// whenUnsatisfiable DoNotSchedule; unset behaves as 1.
	MinDomains *int32 `json:"minDomains,omitempty" protobuf:"varint,5,opt,name=minDomains"`
	// Whether only nodes matching the pod's nodeSelector and node affinity
	// count as domains (Honor, the default) or all nodes do (Ignore).
	NodeAffinityPolicy *NodeInclusionPolicy `json:"nodeAffinityPolicy,omitempty" protobuf:"bytes,6,opt,name=nodeAffinityPolicy"`
	// Whether tainted nodes the pod does not tolerate are left out of the
	// domains (Honor) or not (Ignore, the default).
	NodeTaintsPolicy *NodeInclusionPolicy `json:"nodeTaintsPolicy,omitempty" protobuf:"bytes,7,opt,name=nodeTaintsPolicy"`
	// Label keys of the incoming pod whose values are ANDed with
	// labelSelector to choose the pods counted; keys the pod lacks are
	// ignored. Needs labelSelector and may not repeat one of its keys.
	MatchLabelKeys []string `json:"matchLabelKeys,omitempty" protobuf:"bytes,8,rep,name=matchLabelKeys" listType:"atomic"`
}

// NodeInclusionPolicy says whether a topology spread constraint takes a pod's
// node affinity or a node's taints into account: Honor or Ignore.
type NodeInclusionPolicy string

// The node inclusion policies.
const (
	NodeInclusionPolicyIgnore NodeInclusionPolicy = "Ignore"
	NodeInclusionPolicyHonor  NodeInclusionPolicy = "Honor"
)

// UnsatisfiableConstraintAction is what the scheduler does with a pod whose
// topology spread constraint cannot be met: DoNotSchedule or ScheduleAnyway.
type UnsatisfiableConstraintAction string

// The actions for an unsatisfiable spread constraint.
const (
	DoNotSchedule  UnsatisfiableConstraintAction = "DoNotSchedule"
	ScheduleAnyway UnsatisfiableConstraintAction = "ScheduleAnyway"
)

// PodSchedulingGate holds a pod back from scheduling until it is removed.
type PodSchedulingGate struct {
	// Name of the gate; unique within the pod.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
}

// PodSchedulingGroup names the scheduling group a pod belongs to, so the
// scheduler can treat the group as a whole. Exactly one field is set.
type PodSchedulingGroup struct {
	// Name of the PodGroup object, in the pod's namespace, that stands for
	// the group; a DNS subdomain.
	PodGroupName *string `json:"podGroupName,omitempty" protobuf:"bytes,1,opt,name=podGroupName"`
}

// PreemptionPolicy says whether a pod may evict lower-priority pods to make
// room for itself: PreemptLowerPriority (the default) or Never.
type PreemptionPolicy string

// The preemption policies.
const (
	PreemptLowerPriority PreemptionPolicy = "PreemptLowerPriority"
	PreemptNever         PreemptionPolicy = "Never"
)
