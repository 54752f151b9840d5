package api

// Namespace scopes names; deleting one deletes everything in it (core/v1).
type Namespace struct {
	// Kind "Namespace" and apiVersion "v1".
	TypeMeta `json:",inline"`
	// Standard object metadata; namespaces are cluster-scoped, and the name
	// must be a DNS label.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// The finalizers the namespace waits for before it goes away.
	Spec NamespaceSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// Lifecycle phase and conditions.
	Status NamespaceStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// NamespaceList is a list of Namespaces.
type NamespaceList = List[Namespace, *Namespace]

// NamespaceSpec holds the finalizers that must run before the namespace
// goes away; they are separate from metadata.finalizers.
type NamespaceSpec struct {
	// Finalizers that must be removed before the namespace is deleted; the
	// namespace controller removes "kubernetes" once the namespace is empty.
	Finalizers []FinalizerName `json:"finalizers,omitempty" protobuf:"bytes,1,rep,name=finalizers" listType:"atomic"`
}

// FinalizerName names a namespace finalizer.
type FinalizerName string

// FinalizerKubernetes is the namespace finalizer the namespace controller
// removes once the namespace is empty.
const FinalizerKubernetes FinalizerName = "kubernetes"

// NamespaceStatus is the namespace's lifecycle phase and conditions.
type NamespaceStatus struct {
	// "Active", or "Terminating" once deletion has started.
	Phase NamespacePhase `json:"phase,omitempty" protobuf:"bytes,1,opt,name=phase"`
	// Observations about the namespace's deletion, one per type.
	Conditions []NamespaceCondition `json:"conditions,omitempty" protobuf:"bytes,2,rep,name=conditions" patchStrategy:"merge" patchMergeKey:"type" listType:"map" listMapKey:"type"`
}

// NamespacePhase is Active or Terminating.
type NamespacePhase string

// The namespace phases.
const (
	NamespaceActive      NamespacePhase = "Active"
	NamespaceTerminating NamespacePhase = "Terminating"
)

// Well-known namespaces.
const (
	NamespaceDefault   = "default"
	NamespaceSystem    = "kube-system"
	NamespaceNodeLease = "kube-node-lease"
	NamespacePublic    = "kube-public"
	NamespaceAll       = ""
)

// NamespaceCondition is one observation about a namespace, mostly about
// why its deletion is not done yet.
type NamespaceCondition struct {
	// Which condition this is, such as "NamespaceContentRemaining".
	Type NamespaceConditionType `json:"type" protobuf:"bytes,1,opt,name=type"`
	// "True", "False" or "Unknown".
	Status ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status"`
	// When the status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	// Machine-readable CamelCase cause of the last transition.
	Reason string `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	// Human-readable details of the last transition.
	Message string `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// NamespaceConditionType names a namespace condition; the namespace
// controller sets them while it deletes a namespace's contents.
type NamespaceConditionType string

// The namespace conditions.
const (
	// NamespaceDeletionDiscoveryFailure: listing the served resources failed.
	NamespaceDeletionDiscoveryFailure NamespaceConditionType = "NamespaceDeletionDiscoveryFailure"
	// NamespaceDeletionContentFailure: deleting some contents failed.
	NamespaceDeletionContentFailure NamespaceConditionType = "NamespaceDeletionContentFailure"
	// NamespaceDeletionGVParsingFailure: a served group/version could not be
	// parsed.
	NamespaceDeletionGVParsingFailure NamespaceConditionType = "NamespaceDeletionGroupVersionParsingFailure"
	// NamespaceContentRemaining: objects are still left in the namespace.
	NamespaceContentRemaining NamespaceConditionType = "NamespaceContentRemaining"
	// NamespaceFinalizersRemaining: objects left in the namespace wait on
	// finalizers.
	NamespaceFinalizersRemaining NamespaceConditionType = "NamespaceFinalizersRemaining"
)
