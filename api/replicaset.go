package api

// ReplicaSet keeps Spec.Replicas pods that match Spec.Selector running,
// creating them from Spec.Template (apps/v1).
type ReplicaSet struct {
	// Kind "ReplicaSet" and apiVersion "apps/v1".
	TypeMeta `json:",inline"`
	// Standard object metadata.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Desired number of pods, how to recognise them and how to make them.
	Spec ReplicaSetSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// Observed counts of pods, written by the controller.
	Status ReplicaSetStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ReplicaSetList is a list of ReplicaSets.
type ReplicaSetList = List[ReplicaSet, *ReplicaSet]

// ReplicaSetSpec is the desired state. Replicas is a pointer so that "not
// set" (defaulted to 1) differs from 0.
type ReplicaSetSpec struct {
	// Number of pods wanted. Default 1.
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
	// Seconds a new pod must stay ready, without a container crashing, to
	// count as available. Default 0: available as soon as ready.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty" protobuf:"varint,4,opt,name=minReadySeconds"`
	// Label selector for the pods this ReplicaSet owns; it must match the
	// template's labels. Required.
	Selector *LabelSelector `json:"selector" protobuf:"bytes,2,opt,name=selector" structType:"atomic"`
	// The pod created when there are too few.
	Template PodTemplateSpec `json:"template,omitempty" protobuf:"bytes,3,opt,name=template"`
}

// PodTemplateSpec is the pod a controller stamps out.
type PodTemplateSpec struct {
	// Metadata for the created pods; its labels must match the selector.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Spec of the created pods.
	Spec PodSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
}

// ReplicaSetStatus is the observed state, written by the controller.
type ReplicaSetStatus struct {
	// Number of non-terminating pods last seen.
	Replicas int32 `json:"replicas" protobuf:"varint,1,opt,name=replicas"`
	// Non-terminating pods whose labels match all of the template's labels.
	FullyLabeledReplicas int32 `json:"fullyLabeledReplicas,omitempty" protobuf:"varint,2,opt,name=fullyLabeledReplicas"`
	// Non-terminating pods that are ready.
	ReadyReplicas int32 `json:"readyReplicas,omitempty" protobuf:"varint,4,opt,name=readyReplicas"`
	// Non-terminating pods ready for at least minReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas,omitempty" protobuf:"varint,5,opt,name=availableReplicas"`
	// Pods being deleted (deletionTimestamp set) that have not yet
	// succeeded or failed (beta).
	TerminatingReplicas *int32 `json:"terminatingReplicas,omitempty" protobuf:"varint,7,opt,name=terminatingReplicas"`
	// The metadata.generation this status was computed for.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,3,opt,name=observedGeneration"`
	// Latest observations of the ReplicaSet's state, one per type.
	Conditions []ReplicaSetCondition `json:"conditions,omitempty" protobuf:"bytes,6,rep,name=conditions" patchStrategy:"merge" patchMergeKey:"type" listType:"map" listMapKey:"type"`
}

// ReplicaSetConditionType names a ReplicaSet condition.
type ReplicaSetConditionType string

// ReplicaSetReplicaFailure is set when pods could not be created or deleted.
const ReplicaSetReplicaFailure ReplicaSetConditionType = "ReplicaFailure"

// ReplicaSetCondition is one observation about a ReplicaSet.
type ReplicaSetCondition struct {
	// Which condition this is, such as "ReplicaFailure".
	Type ReplicaSetConditionType `json:"type" protobuf:"bytes,1,opt,name=type"`
	// "True", "False" or "Unknown".
	Status ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status"`
	// When the status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// Machine-readable CamelCase cause of the last transition.
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// Human-readable details of the last transition.
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// LabelSelector is the object form of a label selector (meta/v1): an AND
// of matchLabels and matchExpressions. LabelSelectorAsSelector turns it
// into a Selector.
type LabelSelector struct {
	// Labels an object must have with exactly these values; each pair is
	// an In requirement with one value.
	MatchLabels map[string]string `json:"matchLabels,omitempty" protobuf:"bytes,1,rep,name=matchLabels"`
	// Requirements an object must meet; all must hold.
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty" protobuf:"bytes,2,rep,name=matchExpressions" listType:"atomic"`
}

// LabelSelectorRequirement is one expression: key operator values.
type LabelSelectorRequirement struct {
	// Label key the requirement is about.
	Key string `json:"key" protobuf:"bytes,1,opt,name=key"`
	// In, NotIn, Exists or DoesNotExist.
	Operator LabelSelectorOperator `json:"operator" protobuf:"bytes,2,opt,name=operator"`
	// Values to compare against: non-empty for In and NotIn, empty for
	// Exists and DoesNotExist.
	Values []string `json:"values,omitempty" protobuf:"bytes,3,rep,name=values" listType:"atomic"`
}

// LabelSelectorOperator relates a key to values.
type LabelSelectorOperator string

// The label selector operators.
const (
	LabelSelectorOpIn           LabelSelectorOperator = "In"
	LabelSelectorOpNotIn        LabelSelectorOperator = "NotIn"
	LabelSelectorOpExists       LabelSelectorOperator = "Exists"
	LabelSelectorOpDoesNotExist LabelSelectorOperator = "DoesNotExist"
)
