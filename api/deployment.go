package api

// Deployment declares a desired pod template and replica count and rolls
// every change of the template out gradually, by running a new ReplicaSet
// up and the old ones down (apps/v1).
type Deployment struct {
	// Kind "Deployment" and apiVersion "apps/v1".
	TypeMeta `json:",inline"`
	// Standard object metadata.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// What the user wants: the pods, how many, and how to move between versions.
	Spec DeploymentSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// What the deployment controller last saw. Written through /status.
	Status DeploymentStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// DeploymentList is a list of Deployments.
type DeploymentList = List[Deployment, *Deployment]

// DeploymentSpec is the desired state of a Deployment.
type DeploymentSpec struct {
	// How many pods should run. A pointer so that "unset" (defaulted to 1)
	// differs from an explicit 0.
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
	// Which pods belong to this Deployment. Required, must match the
	// template's labels, and fixed once created in apps/v1.
	Selector *LabelSelector `json:"selector" protobuf:"bytes,2,opt,name=selector" structType:"atomic"`
	// The pod every ReplicaSet of this Deployment creates. Changing it starts
	// a rollout; its restartPolicy must be Always.
	Template PodTemplateSpec `json:"template" protobuf:"bytes,3,opt,name=template"`
	// How old pods are replaced by new ones.
	Strategy DeploymentStrategy `json:"strategy,omitempty" protobuf:"bytes,4,opt,name=strategy" patchStrategy:"retainKeys"`
	// How long a fresh pod must be ready, with no container crashing, before
	// it counts as available. Default 0.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty" protobuf:"varint,5,opt,name=minReadySeconds"`
	// How many scaled-down ReplicaSets to keep for rollbacks. Default 10.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty" protobuf:"varint,6,opt,name=revisionHistoryLimit"`
	// While true, template changes start no rollout; scaling still works.
	Paused bool `json:"paused,omitempty" protobuf:"varint,7,opt,name=paused"`
	// Seconds a rollout may go without progress before the controller marks
	// it failed (Progressing=False, reason ProgressDeadlineExceeded). It must
	// exceed minReadySeconds. Default 600.
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty" protobuf:"varint,9,opt,name=progressDeadlineSeconds"`
}

// DefaultDeploymentUniqueLabelKey is the label the deployment controller
// adds to each ReplicaSet's selector, template and pods, with the hash of
// the template as value, so that ReplicaSets of different versions never
// select each other's pods.
const DefaultDeploymentUniqueLabelKey = "pod-template-hash"

// DeploymentStrategy says how a rollout replaces pods.
type DeploymentStrategy struct {
	// "Recreate" or "RollingUpdate" (the default).
	Type DeploymentStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type"`
	// Bounds of a rolling update. Only with type RollingUpdate.
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty" protobuf:"bytes,2,opt,name=rollingUpdate"`
}

// DeploymentStrategyType names a way of rolling out.
type DeploymentStrategyType string

// The rollout strategies.
const (
	// RecreateDeploymentStrategyType stops every old pod before starting new ones.
	RecreateDeploymentStrategyType DeploymentStrategyType = "Recreate"
	// RollingUpdateDeploymentStrategyType brings new pods up while old ones
	// go down, within maxSurge and maxUnavailable.
	RollingUpdateDeploymentStrategyType DeploymentStrategyType = "RollingUpdate"
)

// RollingUpdateDeployment bounds a rolling update. Both are a count or a
// percentage of spec.replicas; they cannot both be 0, or no step could be
// taken.
type RollingUpdateDeployment struct {
	// How many pods may be missing below spec.replicas during the update
	// (percentages round down). Default 25%.
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty" protobuf:"bytes,1,opt,name=maxUnavailable"`
	// How many pods may exist above spec.replicas during the update
	// (percentages round up). Default 25%.
	MaxSurge *IntOrString `json:"maxSurge,omitempty" protobuf:"bytes,2,opt,name=maxSurge"`
}

// DeploymentStatus is what the deployment controller observed.
type DeploymentStatus struct {
	// The metadata.generation this status describes; behind generation
	// means the controller has not yet acted on the latest spec.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	// Non-terminating pods of all this Deployment's ReplicaSets.
	Replicas int32 `json:"replicas,omitempty" protobuf:"varint,2,opt,name=replicas"`
	// Non-terminating pods made from the current template.
	UpdatedReplicas int32 `json:"updatedReplicas,omitempty" protobuf:"varint,3,opt,name=updatedReplicas"`
	// Non-terminating pods that are ready.
	ReadyReplicas int32 `json:"readyReplicas,omitempty" protobuf:"varint,7,opt,name=readyReplicas"`
	// Non-terminating pods ready for at least minReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas,omitempty" protobuf:"varint,4,opt,name=availableReplicas"`
	// Pods still missing before the Deployment is fully available:
	// spec.replicas minus available pods, or the pods that do not exist yet.
	UnavailableReplicas int32 `json:"unavailableReplicas,omitempty" protobuf:"varint,5,opt,name=unavailableReplicas"`
	// Pods being deleted that have not yet finished (beta).
	TerminatingReplicas *int32 `json:"terminatingReplicas,omitempty" protobuf:"varint,9,opt,name=terminatingReplicas"`
	// The latest observations of the rollout, one per type.
	Conditions []DeploymentCondition `json:"conditions,omitempty" protobuf:"bytes,6,rep,name=conditions" patchStrategy:"merge" patchMergeKey:"type"`
	// How many times a new ReplicaSet's name collided with an existing one;
	// mixed into the template hash so that the next try gets another name.
	CollisionCount *int32 `json:"collisionCount,omitempty" protobuf:"varint,8,opt,name=collisionCount"`
}

// DeploymentConditionType names a Deployment condition.
type DeploymentConditionType string

// The conditions the deployment controller maintains.
const (
	// DeploymentAvailable is True when at least spec.replicas minus
	// maxUnavailable pods are available.
	DeploymentAvailable DeploymentConditionType = "Available"
	// DeploymentProgressing is True while a rollout moves forward or has
	// finished, False once it stalled past progressDeadlineSeconds.
	DeploymentProgressing DeploymentConditionType = "Progressing"
	// DeploymentReplicaFailure is True when a ReplicaSet could not create or
	// delete pods.
	DeploymentReplicaFailure DeploymentConditionType = "ReplicaFailure"
)

// DeploymentCondition is one observation about a Deployment.
type DeploymentCondition struct {
	// Which condition: Available, Progressing or ReplicaFailure.
	Type DeploymentConditionType `json:"type" protobuf:"bytes,1,opt,name=type"`
	// "True", "False" or "Unknown".
	Status ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status"`
	// When the controller last wrote this condition, changed or not.
	LastUpdateTime Time `json:"lastUpdateTime,omitempty" protobuf:"bytes,6,opt,name=lastUpdateTime"`
	// When status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,7,opt,name=lastTransitionTime"`
	// Machine-readable CamelCase cause, such as NewReplicaSetAvailable.
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// Human-readable details.
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}
