package api

// Affinity holds a pod's affinity rules: towards nodes by their labels, and
// towards or away from other pods. kubeloop's scheduler acts only on the
// required node affinity; the other rules are stored and served.
type Affinity struct {
	// Rules on the labels and fields of the node the pod may run on.
	NodeAffinity *NodeAffinity `json:"nodeAffinity,omitempty" protobuf:"bytes,1,opt,name=nodeAffinity"`
	// Rules for placing the pod in the same topology domain (node, zone...)
	// as certain other pods.
	PodAffinity *PodAffinity `json:"podAffinity,omitempty" protobuf:"bytes,2,opt,name=podAffinity"`
	// Rules for keeping the pod out of the topology domains of certain other
	// pods.
	PodAntiAffinity *PodAntiAffinity `json:"podAntiAffinity,omitempty" protobuf:"bytes,3,opt,name=podAntiAffinity"`
}

// NodeAffinity constrains the nodes a pod may run on: the required terms must
// match for a node to be feasible, the preferred ones only rank feasible nodes.
// Both are checked when the pod is scheduled, not while it runs.
type NodeAffinity struct {
	// Node selector a node must match for the pod to be placed on it. A pod
	// already running is not necessarily evicted when its node stops
	// matching.
	RequiredDuringSchedulingIgnoredDuringExecution *NodeSelector `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,1,opt,name=requiredDuringSchedulingIgnoredDuringExecution" structType:"atomic"`
	// Weighted terms that make a node more attractive: among the feasible
	// nodes, the one whose matching terms have the largest total weight is
	// preferred.
	PreferredDuringSchedulingIgnoredDuringExecution []PreferredSchedulingTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,2,rep,name=preferredDuringSchedulingIgnoredDuringExecution" listType:"atomic"`
}

// NodeSelector is an OR of terms: a node matches if any term matches it.
type NodeSelector struct {
	// The terms; at least one is required, and a node must match one of them.
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms" protobuf:"bytes,1,rep,name=nodeSelectorTerms" listType:"atomic" structType:"atomic"`
}

// NodeSelectorTerm is an AND of requirements on node labels or fields. An
// empty or null term matches no node.
type NodeSelectorTerm struct {
	// Requirements on the node's labels, all of which must hold.
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty" protobuf:"bytes,1,rep,name=matchExpressions" listType:"atomic"`
	// Requirements on the node's fields (only metadata.name is supported),
	// all of which must hold.
	MatchFields []NodeSelectorRequirement `json:"matchFields,omitempty" protobuf:"bytes,2,rep,name=matchFields" listType:"atomic"`
}

// NodeSelectorRequirement is one requirement: key operator values.
type NodeSelectorRequirement struct {
	// Label key (or field path, in matchFields) the requirement tests.
	Key string `json:"key" protobuf:"bytes,1,opt,name=key"`
	// How the key relates to the values: In, NotIn, Exists, DoesNotExist, Gt
	// or Lt.
	Operator NodeSelectorOperator `json:"operator" protobuf:"bytes,2,opt,name=operator"`
	// Values to compare with: at least one for In and NotIn, none for Exists
	// and DoesNotExist, exactly one integer for Gt and Lt.
	Values []string `json:"values,omitempty" protobuf:"bytes,3,rep,name=values" listType:"atomic"`
}

// NodeSelectorOperator relates a key to values: In and NotIn test membership,
// Exists and DoesNotExist test presence, Gt and Lt compare the value as an
// integer.
type NodeSelectorOperator string

// The node selector operators.
const (
	NodeSelectorOpIn           NodeSelectorOperator = "In"
	NodeSelectorOpNotIn        NodeSelectorOperator = "NotIn"
	NodeSelectorOpExists       NodeSelectorOperator = "Exists"
	NodeSelectorOpDoesNotExist NodeSelectorOperator = "DoesNotExist"
	NodeSelectorOpGt           NodeSelectorOperator = "Gt"
	NodeSelectorOpLt           NodeSelectorOperator = "Lt"
)

// PreferredSchedulingTerm is a node selector term with a weight, added to a
// node's score when the node matches it.
type PreferredSchedulingTerm struct {
	// Score added when the term matches; 1 to 100.
	Weight int32 `json:"weight" protobuf:"varint,1,opt,name=weight"`
	// The term a node must match to earn the weight.
	Preference NodeSelectorTerm `json:"preference" protobuf:"bytes,2,opt,name=preference" structType:"atomic"`
}

// PodAffinity asks for the pod to run in the same topology domain as certain
// other pods.
type PodAffinity struct {
	// Terms that must all hold for a node to be feasible. Checked only when
	// the pod is scheduled; a running pod is not necessarily evicted when
	// they stop holding.
	RequiredDuringSchedulingIgnoredDuringExecution []PodAffinityTerm `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,1,rep,name=requiredDuringSchedulingIgnoredDuringExecution" listType:"atomic"`
	// Weighted terms whose weights are added to the score of every feasible
	// node on which they hold.
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,2,rep,name=preferredDuringSchedulingIgnoredDuringExecution" listType:"atomic"`
}

// PodAntiAffinity asks for the pod to stay out of the topology domains where
// certain other pods run.
type PodAntiAffinity struct {
	// Terms that must all be avoided for a node to be feasible. Checked only
	// when the pod is scheduled; a running pod is not necessarily evicted
	// later.
	RequiredDuringSchedulingIgnoredDuringExecution []PodAffinityTerm `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,1,rep,name=requiredDuringSchedulingIgnoredDuringExecution" listType:"atomic"`
	// Weighted terms whose weights are subtracted from the score of every
	// feasible node on which they hold.
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,2,rep,name=preferredDuringSchedulingIgnoredDuringExecution" listType:"atomic"`
}

// PodAffinityTerm selects a set of pods and a topology key: a node is "with"
// those pods when its value for the key equals that of a node running one of
// them.
type PodAffinityTerm struct {
	// Which pods the term is about; null matches no pods.
	LabelSelector *LabelSelector `json:"labelSelector,omitempty" protobuf:"bytes,1,opt,name=labelSelector" structType:"atomic"`
	// Namespaces to look for those pods in, added to those namespaceSelector
	// picks. If both are empty, the pod's own namespace.
	Namespaces []string `json:"namespaces,omitempty" protobuf:"bytes,2,rep,name=namespaces" listType:"atomic"`
	// Node label that defines the topology domain, e.g.
	// "topology.kubernetes.io/zone" or "kubernetes.io/hostname". Required.
	TopologyKey string `json:"topologyKey" protobuf:"bytes,3,opt,name=topologyKey"`
	// Label selector over namespaces to look for those pods in, added to the
	// namespaces list. An empty selector ({}) means every namespace; null and
	// an empty list mean the pod's own namespace.
	NamespaceSelector *LabelSelector `json:"namespaceSelector,omitempty" protobuf:"bytes,4,opt,name=namespaceSelector" structType:"atomic"`
	// Label keys of the incoming pod whose values are added to labelSelector
	// as "key in (value)"; keys the pod lacks are ignored. Needs
	// labelSelector and may not repeat one of its keys.
	MatchLabelKeys []string `json:"matchLabelKeys,omitempty" protobuf:"bytes,5,rep,name=matchLabelKeys" listType:"atomic"`
	// Label keys of the incoming pod whose values are added to labelSelector
	// as "key notin (value)"; keys the pod lacks are ignored. Needs
	// labelSelector and may not repeat one of its keys.
	MismatchLabelKeys []string `json:"mismatchLabelKeys,omitempty" protobuf:"bytes,6,rep,name=mismatchLabelKeys" listType:"atomic"`
}

// WeightedPodAffinityTerm is a pod affinity term with a weight, used for
// preferences: the weights of the terms that hold on a node are summed.
type WeightedPodAffinityTerm struct {
	// Score the term contributes when it holds; 1 to 100.
	Weight int32 `json:"weight" protobuf:"varint,1,opt,name=weight"`
	// The term itself.
	PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm" protobuf:"bytes,2,opt,name=podAffinityTerm"`
}
