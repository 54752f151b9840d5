package api

// PodStatus is what the kubelet (and scheduler) report. It may lag behind the
// node, most of all when the node cannot reach the control plane.
type PodStatus struct {
	// The metadata.generation this status was computed from.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,17,opt,name=observedGeneration"`
	// Coarse summary of where the pod is in its life: Pending, Running,
	// Succeeded, Failed or Unknown. The conditions and container statuses
	// give the details.
	Phase PodPhase `json:"phase,omitempty" protobuf:"bytes,1,opt,name=phase"`
	// Observations about the pod (scheduled, initialized, ready...), one per
	// type.
	Conditions []PodCondition `json:"conditions,omitempty" protobuf:"bytes,2,rep,name=conditions" patchStrategy:"merge" patchMergeKey:"type" listType:"map" listMapKey:"type"`
	// Human-readable explanation of the pod's current state.
	Message string `json:"message,omitempty" protobuf:"bytes,3,opt,name=message"`
	// Short CamelCase word saying why the pod is in this state, e.g.
	// "Evicted".
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// Node the scheduler expects to bind the pod to once the pods it
	// preempted there have gone. Not a promise: the pod may still land
	// elsewhere.
	NominatedNodeName string `json:"nominatedNodeName,omitempty" protobuf:"bytes,11,opt,name=nominatedNodeName"`
	// Primary IP address of the pod's node; empty until the pod has started
	// (and stale if that node's kubelet is not working).
	HostIP string `json:"hostIP,omitempty" protobuf:"bytes,5,opt,name=hostIP"`
	// All IP addresses of the pod's node, the first equal to hostIP; empty
	// until the pod has started.
	HostIPs []HostIP `json:"hostIPs,omitempty" protobuf:"bytes,16,rep,name=hostIPs" patchStrategy:"merge" patchMergeKey:"ip" listType:"atomic"`
	// Primary IP address of the pod, reachable at least inside the cluster;
	// empty until one is allocated.
	PodIP string `json:"podIP,omitempty" protobuf:"bytes,6,opt,name=podIP"`
	// All IP addresses of the pod, at most one IPv4 and one IPv6, the first
	// equal to podIP; empty until allocated.
	PodIPs []PodIP `json:"podIPs,omitempty" protobuf:"bytes,12,rep,name=podIPs" patchStrategy:"merge" patchMergeKey:"ip" listType:"map" listMapKey:"ip"`
	// When the kubelet accepted the pod, before it pulled any image (RFC
	// 3339).
	StartTime *Time `json:"startTime,omitempty" protobuf:"bytes,7,opt,name=startTime"`
	// One status per init container, by name.
	InitContainerStatuses []ContainerStatus `json:"initContainerStatuses,omitempty" protobuf:"bytes,10,rep,name=initContainerStatuses" listType:"atomic"`
	// One status per regular container, by name. Duplicates or statuses of
	// unknown containers are not rejected, but components may ignore them.
	ContainerStatuses []ContainerStatus `json:"containerStatuses,omitempty" protobuf:"bytes,8,rep,name=containerStatuses" listType:"atomic"`
	// Quality of service class derived from the containers' requests and
	// limits: Guaranteed, Burstable or BestEffort.
	QOSClass string `json:"qosClass,omitempty" protobuf:"bytes,9,opt,name=qosClass"`
	// One status per ephemeral container that has run in the pod, by name.
	EphemeralContainerStatuses []ContainerStatus `json:"ephemeralContainerStatuses,omitempty" protobuf:"bytes,13,rep,name=ephemeralContainerStatuses" listType:"atomic"`
	// State of a requested in-place resize. Deprecated: use the
	// PodResizePending and PodResizeInProgress conditions.
	Resize PodResizeStatus `json:"resize,omitempty" protobuf:"bytes,14,opt,name=resize"`
	// Names of the ResourceClaims generated for spec.resourceClaims, one per
	// entry.
	ResourceClaimStatuses []PodResourceClaimStatus `json:"resourceClaimStatuses,omitempty" protobuf:"bytes,15,rep,name=resourceClaimStatuses" patchStrategy:"merge,retainKeys" patchMergeKey:"name" listType:"map" listMapKey:"name"`
	// The claim the scheduler created for extended resources backed by DRA.
	ExtendedResourceClaimStatus *PodExtendedResourceClaimStatus `json:"extendedResourceClaimStatus,omitempty" protobuf:"bytes,18,opt,name=extendedResourceClaimStatus"`
	// Total requests the node has allocated to the pod: the pod-level
	// requests if set, otherwise the sum over its containers.
	AllocatedResources ResourceList `json:"allocatedResources,omitempty" protobuf:"bytes,19,rep,name=allocatedResources"`
	// Pod-level requests and limits in effect, when spec.resources sets
	// them.
	Resources *ResourceRequirements `json:"resources,omitempty" protobuf:"bytes,20,opt,name=resources"`
	// Node resources such as cpu and memory that DRA claims allocated to the
	// pod, one entry per claim.
	NodeAllocatableResourceClaimStatuses []NodeAllocatableResourceClaimStatus `json:"nodeAllocatableResourceClaimStatuses,omitempty" protobuf:"bytes,21,rep,name=nodeAllocatableResourceClaimStatuses" patchStrategy:"merge" patchMergeKey:"resourceClaimName" listType:"map" listMapKey:"resourceClaimName"`
	// Health of each volume the pod uses, as the node's CSI plugin reports
	// it through the kubelet; one entry per volume.
	VolumeHealth []PodVolumeHealth `json:"volumeHealth,omitempty" protobuf:"bytes,22,rep,name=volumeHealth" listType:"map" listMapKey:"name"`
}

// PodIP is one address of a pod.
type PodIP struct {
	// The IP address. Required.
	IP string `json:"ip" protobuf:"bytes,1,opt,name=ip"`
}

// HostIP is one address of the node a pod runs on.
type HostIP struct {
	// The IP address. Required.
	IP string `json:"ip" protobuf:"bytes,1,opt,name=ip"`
}

// PodPhase is the coarse lifecycle state of a pod: Pending (accepted, but
// not every container has started; this includes waiting to be scheduled and
// pulling images), Running (bound, and at least one container is running or
// restarting), Succeeded (every container exited 0 and none will restart),
// Failed (every container has stopped and at least one failed) or Unknown
// (the node could not be asked; no longer set).
type PodPhase string

// The pod phases.
const (
	PodPending   PodPhase = "Pending"
	PodRunning   PodPhase = "Running"
	PodSucceeded PodPhase = "Succeeded"
	PodFailed    PodPhase = "Failed"
	PodUnknown   PodPhase = "Unknown"
)

// PodConditionType names one pod condition: PodScheduled (bound to a node),
// PodReadyToStartContainers (sandbox and network set up), Initialized (init
// containers done), ContainersReady, Ready (can serve; in endpoints),
// DisruptionTarget (about to be terminated by preemption, eviction or garbage
// collection), PodResizePending and PodResizeInProgress (an in-place resize
// not yet allocated, or allocated but not yet applied) and
// AllContainersRestarting (every container is being restarted, after a
// RestartAllContainers rule matched).
type PodConditionType string

// The pod conditions.
const (
	PodScheduled              PodConditionType = "PodScheduled"
	PodReadyToStartContainers PodConditionType = "PodReadyToStartContainers"
	PodInitialized            PodConditionType = "Initialized"
	ContainersReady           PodConditionType = "ContainersReady"
	PodReady                  PodConditionType = "Ready"
	DisruptionTarget          PodConditionType = "DisruptionTarget"
	PodResizePending          PodConditionType = "PodResizePending"
	PodResizeInProgress       PodConditionType = "PodResizeInProgress"
	AllContainersRestarting   PodConditionType = "AllContainersRestarting"
)

// PodReasonUnschedulable is the PodScheduled=False reason when no node fits.
const PodReasonUnschedulable = "Unschedulable"

// ConditionStatus is True, False or Unknown.
type ConditionStatus string

// The condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// PodCondition is one observation about a pod.
type PodCondition struct {
	// Which condition this is, e.g. Ready or PodScheduled.
	Type PodConditionType `json:"type" protobuf:"bytes,1,opt,name=type"`
	// The metadata.generation the condition was computed from.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,7,opt,name=observedGeneration"`
	// True, False or Unknown.
	Status ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status"`
	// When the condition was last checked.
	LastProbeTime Time `json:"lastProbeTime,omitempty" protobuf:"bytes,3,opt,name=lastProbeTime"`
	// When the status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	// One CamelCase word saying why the status last changed, e.g.
	// "Unschedulable".
	Reason string `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	// Human-readable details of the last change.
	Message string `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// PodQOSClass is a pod's quality of service class: Guaranteed (every
// container sets cpu and memory limits, with requests equal to them),
// Burstable (not Guaranteed, but some cpu or memory request or limit is set)
// or BestEffort (none is set).
type PodQOSClass string

// The quality of service classes.
const (
	PodQOSGuaranteed PodQOSClass = "Guaranteed"
	PodQOSBurstable  PodQOSClass = "Burstable"
	PodQOSBestEffort PodQOSClass = "BestEffort"
)

// PodResizeStatus is the state of an in-place resize: InProgress (accepted
// and being applied), Deferred (not possible now; retried) or Infeasible
// (never possible on this node). Deprecated: use the PodResizePending and
// PodResizeInProgress conditions.
type PodResizeStatus string

// The resize states.
const (
	PodResizeStatusInProgress PodResizeStatus = "InProgress"
	PodResizeStatusDeferred   PodResizeStatus = "Deferred"
	PodResizeStatusInfeasible PodResizeStatus = "Infeasible"
)

// PodVolumeHealth is the health of one volume of a pod, as the CSI node
// plugin reports it through the kubelet.
type PodVolumeHealth struct {
	// Name of the volume in spec.volumes. Required.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Problems reported for the volume on this node, one per status and
	// reason; at most 16. Empty means healthy.
	HealthConditions []VolumeHealthCondition `json:"healthConditions,omitempty" protobuf:"bytes,2,rep,name=healthConditions" patchStrategy:"merge" patchMergeKey:"status" listType:"map" listMapKey:"status,reason"`
	// When the current set of conditions first appeared.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
}

// VolumeHealthCondition is one problem reported for a volume.
type VolumeHealthCondition struct {
	// Kind of problem: Inaccessible, DataLoss or Degraded. Required.
	Status VolumeHealthStatusType `json:"status" protobuf:"bytes,1,opt,name=status"`
	// CamelCase reason, at most 256 bytes; with status it identifies the
	// entry. Required.
	Reason string `json:"reason" protobuf:"bytes,2,opt,name=reason"`
	// Human-readable description, at most 1024 bytes.
	Message string `json:"message,omitempty" protobuf:"bytes,3,opt,name=message"`
}

// VolumeHealthStatusType is a kind of volume problem: Inaccessible (cannot be
// reached), DataLoss (data has been lost) or Degraded (working, with reduced
// capability).
type VolumeHealthStatusType string

// The volume health problems.
const (
	VolumeHealthInaccessible VolumeHealthStatusType = "Inaccessible"
	VolumeHealthDataLoss     VolumeHealthStatusType = "DataLoss"
	VolumeHealthDegraded     VolumeHealthStatusType = "Degraded"
)
