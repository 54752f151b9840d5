package api

// ReplicaSet keeps Spec.Replicas pods that match Spec.Selector running,
// creating them from Spec.Template (apps/v1).
type ReplicaSet struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       ReplicaSetSpec   `json:"spec,omitempty"`
	Status     ReplicaSetStatus `json:"status,omitempty"`
}

// ReplicaSetList is a list of ReplicaSets.
type ReplicaSetList = List[ReplicaSet, *ReplicaSet]

// ReplicaSetSpec is the desired state. Replicas is a pointer so that "not
// set" (defaulted to 1) differs from 0.
type ReplicaSetSpec struct {
	Replicas        *int32          `json:"replicas,omitempty"`
	MinReadySeconds int32           `json:"minReadySeconds,omitempty"`
	Selector        *LabelSelector  `json:"selector"`
	Template        PodTemplateSpec `json:"template,omitempty"`
}

// PodTemplateSpec is the pod a controller stamps out.
type PodTemplateSpec struct {
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PodSpec `json:"spec,omitempty"`
}

// ReplicaSetStatus is the observed state, written by the controller.
type ReplicaSetStatus struct {
	Replicas             int32                 `json:"replicas"`
	FullyLabeledReplicas int32                 `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32                 `json:"readyReplicas,omitempty"`
	AvailableReplicas    int32                 `json:"availableReplicas,omitempty"`
	ObservedGeneration   int64                 `json:"observedGeneration,omitempty"`
	Conditions           []ReplicaSetCondition `json:"conditions,omitempty"`
}

// ReplicaSetConditionType names a ReplicaSet condition.
type ReplicaSetConditionType string

// ReplicaSetReplicaFailure is set when pods could not be created or deleted.
const ReplicaSetReplicaFailure ReplicaSetConditionType = "ReplicaFailure"

// ReplicaSetCondition is one observation about a ReplicaSet.
type ReplicaSetCondition struct {
	Type               ReplicaSetConditionType `json:"type"`
	Status             ConditionStatus         `json:"status"`
	LastTransitionTime Time                    `json:"lastTransitionTime,omitempty"`
	Reason             string                  `json:"reason,omitempty"`
	Message            string                  `json:"message,omitempty"`
}

// LabelSelector is the object form of a label selector (meta/v1): an AND
// of matchLabels and matchExpressions. LabelSelectorAsSelector turns it
// into a Selector.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is one expression: key operator values.
type LabelSelectorRequirement struct {
	Key      string                `json:"key"`
	Operator LabelSelectorOperator `json:"operator"`
	Values   []string              `json:"values,omitempty"`
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
