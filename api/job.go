package api

type Job struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec       JobSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status     JobStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// JobList is a list of Jobs.
type JobList = List[Job, *Job]

type JobSpec struct {
	Parallelism             *int32                      `json:"parallelism,omitempty" protobuf:"varint,1,opt,name=parallelism"`
	Completions             *int32                      `json:"completions,omitempty" protobuf:"varint,2,opt,name=completions"`
	ActiveDeadlineSeconds   *int64                      `json:"activeDeadlineSeconds,omitempty" protobuf:"varint,3,opt,name=activeDeadlineSeconds"`
	PodFailurePolicy        *PodFailurePolicy           `json:"podFailurePolicy,omitempty" protobuf:"bytes,11,opt,name=podFailurePolicy"`
	SuccessPolicy           *SuccessPolicy              `json:"successPolicy,omitempty" protobuf:"bytes,16,opt,name=successPolicy"`
	BackoffLimit            *int32                      `json:"backoffLimit,omitempty" protobuf:"varint,7,opt,name=backoffLimit"`
	BackoffLimitPerIndex    *int32                      `json:"backoffLimitPerIndex,omitempty" protobuf:"varint,12,opt,name=backoffLimitPerIndex"`
	MaxFailedIndexes        *int32                      `json:"maxFailedIndexes,omitempty" protobuf:"varint,13,opt,name=maxFailedIndexes"`
	Selector                *LabelSelector              `json:"selector,omitempty" protobuf:"bytes,4,opt,name=selector"`
	ManualSelector          *bool                       `json:"manualSelector,omitempty" protobuf:"varint,5,opt,name=manualSelector"`
	Template                PodTemplateSpec             `json:"template" protobuf:"bytes,6,opt,name=template"`
	TTLSecondsAfterFinished *int32                      `json:"ttlSecondsAfterFinished,omitempty" protobuf:"varint,8,opt,name=ttlSecondsAfterFinished"`
	CompletionMode          *CompletionMode             `json:"completionMode,omitempty" protobuf:"bytes,9,opt,name=completionMode"`
	Suspend                 *bool                       `json:"suspend,omitempty" protobuf:"varint,10,opt,name=suspend"`
	PodReplacementPolicy    *PodReplacementPolicy       `json:"podReplacementPolicy,omitempty" protobuf:"bytes,14,opt,name=podReplacementPolicy"`
	ManagedBy               *string                     `json:"managedBy,omitempty" protobuf:"bytes,15,opt,name=managedBy"`
	Scheduling              *JobSchedulingConfiguration `json:"scheduling,omitempty" protobuf:"bytes,17,opt,name=scheduling"`
}

type JobStatus struct {
	Conditions              []JobCondition           `json:"conditions,omitempty" protobuf:"bytes,1,rep,name=conditions" patchStrategy:"merge" patchMergeKey:"type"`
	StartTime               *Time                    `json:"startTime,omitempty" protobuf:"bytes,2,opt,name=startTime"`
	CompletionTime          *Time                    `json:"completionTime,omitempty" protobuf:"bytes,3,opt,name=completionTime"`
	Active                  int32                    `json:"active,omitempty" protobuf:"varint,4,opt,name=active"`
	Succeeded               int32                    `json:"succeeded,omitempty" protobuf:"varint,5,opt,name=succeeded"`
	Failed                  int32                    `json:"failed,omitempty" protobuf:"varint,6,opt,name=failed"`
	Terminating             *int32                   `json:"terminating,omitempty" protobuf:"varint,11,opt,name=terminating"`
	CompletedIndexes        string                   `json:"completedIndexes,omitempty" protobuf:"bytes,7,opt,name=completedIndexes"`
	FailedIndexes           *string                  `json:"failedIndexes,omitempty" protobuf:"bytes,10,opt,name=failedIndexes"`
	UncountedTerminatedPods *UncountedTerminatedPods `json:"uncountedTerminatedPods,omitempty" protobuf:"bytes,8,opt,name=uncountedTerminatedPods"`
	Ready                   *int32                   `json:"ready,omitempty" protobuf:"varint,9,opt,name=ready"`
}

type PodFailurePolicy struct {
	Rules []PodFailurePolicyRule `json:"rules" protobuf:"bytes,1,rep,name=rules"`
}

type SuccessPolicy struct {
	Rules []SuccessPolicyRule `json:"rules" protobuf:"bytes,1,rep,name=rules"`
}

type JobSchedulingConfiguration struct {
	SchedulingPolicy      *WorkloadPodGroupSchedulingPolicy      `json:"schedulingPolicy,omitempty" protobuf:"bytes,1,opt,name=schedulingPolicy"`
	SchedulingConstraints *WorkloadPodGroupSchedulingConstraints `json:"schedulingConstraints,omitempty" protobuf:"bytes,2,opt,name=schedulingConstraints"`
	DisruptionMode        *WorkloadPodGroupDisruptionMode        `json:"disruptionMode,omitempty" protobuf:"bytes,3,opt,name=disruptionMode"`
	ResourceClaims        []WorkloadPodGroupResourceClaim        `json:"resourceClaims,omitempty" protobuf:"bytes,4,rep,name=resourceClaims" patchStrategy:"merge" patchMergeKey:"name"`
}

type JobCondition struct {
	Type               JobConditionType `json:"type" protobuf:"bytes,1,opt,name=type"`
	Status             ConditionStatus  `json:"status" protobuf:"bytes,2,opt,name=status"`
	LastProbeTime      Time             `json:"lastProbeTime,omitempty" protobuf:"bytes,3,opt,name=lastProbeTime"`
	LastTransitionTime Time             `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	Reason             string           `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	Message            string           `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

type UncountedTerminatedPods struct {
	Succeeded []string `json:"succeeded,omitempty" protobuf:"bytes,1,rep,name=succeeded"`
	Failed    []string `json:"failed,omitempty" protobuf:"bytes,2,rep,name=failed"`
}

type PodFailurePolicyRule struct {
	Action          PodFailurePolicyAction                   `json:"action" protobuf:"bytes,1,opt,name=action"`
	OnExitCodes     *PodFailurePolicyOnExitCodesRequirement  `json:"onExitCodes,omitempty" protobuf:"bytes,2,opt,name=onExitCodes"`
	OnPodConditions []PodFailurePolicyOnPodConditionsPattern `json:"onPodConditions,omitempty" protobuf:"bytes,3,rep,name=onPodConditions"`
}

type SuccessPolicyRule struct {
	SucceededIndexes *string `json:"succeededIndexes,omitempty" protobuf:"bytes,1,opt,name=succeededIndexes"`
	SucceededCount   *int32  `json:"succeededCount,omitempty" protobuf:"varint,2,opt,name=succeededCount"`
}

type WorkloadPodGroupSchedulingPolicy struct {
	Basic *WorkloadPodGroupBasicSchedulingPolicy `json:"basic,omitempty" protobuf:"bytes,1,opt,name=basic"`
	Gang  *WorkloadPodGroupGangSchedulingPolicy  `json:"gang,omitempty" protobuf:"bytes,2,opt,name=gang"`
}

type WorkloadPodGroupSchedulingConstraints struct {
	Topology []TopologyConstraint `json:"topology,omitempty" protobuf:"bytes,1,rep,name=topology"`
}

type WorkloadPodGroupDisruptionMode struct {
	Single *WorkloadPodGroupSingleDisruptionMode `json:"single,omitempty" protobuf:"bytes,1,opt,name=single"`
	All    *WorkloadPodGroupAllDisruptionMode    `json:"all,omitempty" protobuf:"bytes,2,opt,name=all"`
}

type WorkloadPodGroupResourceClaim struct {
	Name                      string  `json:"name" protobuf:"bytes,1,opt,name=name"`
	ResourceClaimName         *string `json:"resourceClaimName,omitempty" protobuf:"bytes,2,opt,name=resourceClaimName"`
	ResourceClaimTemplateName *string `json:"resourceClaimTemplateName,omitempty" protobuf:"bytes,3,opt,name=resourceClaimTemplateName"`
}

type PodFailurePolicyOnExitCodesRequirement struct {
	ContainerName *string                             `json:"containerName,omitempty" protobuf:"bytes,1,opt,name=containerName"`
	Operator      PodFailurePolicyOnExitCodesOperator `json:"operator" protobuf:"bytes,2,opt,name=operator"`
	Values        []int32                             `json:"values" protobuf:"varint,3,rep,name=values"`
}

type PodFailurePolicyOnPodConditionsPattern struct {
	Type   PodConditionType `json:"type" protobuf:"bytes,1,opt,name=type"`
	Status ConditionStatus  `json:"status" protobuf:"bytes,2,opt,name=status"`
}

type WorkloadPodGroupBasicSchedulingPolicy struct {
}

type WorkloadPodGroupGangSchedulingPolicy struct {
	MinCount *int32 `json:"minCount,omitempty" protobuf:"varint,1,opt,name=minCount"`
}

type TopologyConstraint struct {
	Key string `json:"key" protobuf:"bytes,1,opt,name=key"`
}

type WorkloadPodGroupSingleDisruptionMode struct {
}

type WorkloadPodGroupAllDisruptionMode struct {
}

type CompletionMode string

type JobConditionType string

type PodFailurePolicyAction string

type PodFailurePolicyOnExitCodesOperator string

type PodReplacementPolicy string
