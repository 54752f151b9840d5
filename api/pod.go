package api

// Pod is one or more containers scheduled together onto a node
// (core/v1, k8s.io/api/core/v1/types.go).
type Pod struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PodSpec   `json:"spec,omitempty"`
	Status     PodStatus `json:"status,omitempty"`
}

// PodList is a list of Pods.
type PodList = List[Pod, *Pod]

// PodSpec is what the user asks for. Only the fields kubeloop's scheduler and
// kubelet act on, plus a few that manifests commonly carry, are modelled.
type PodSpec struct {
	Containers                    []Container       `json:"containers"`
	RestartPolicy                 RestartPolicy     `json:"restartPolicy,omitempty"`
	TerminationGracePeriodSeconds *int64            `json:"terminationGracePeriodSeconds,omitempty"`
	ActiveDeadlineSeconds         *int64            `json:"activeDeadlineSeconds,omitempty"`
	DNSPolicy                     string            `json:"dnsPolicy,omitempty"`
	NodeSelector                  map[string]string `json:"nodeSelector,omitempty"`
	ServiceAccountName            string            `json:"serviceAccountName,omitempty"`
	NodeName                      string            `json:"nodeName,omitempty"`
	Hostname                      string            `json:"hostname,omitempty"`
	Subdomain                     string            `json:"subdomain,omitempty"`
	Affinity                      *Affinity         `json:"affinity,omitempty"`
	SchedulerName                 string            `json:"schedulerName,omitempty"`
	Tolerations                   []Toleration      `json:"tolerations,omitempty"`
	PriorityClassName             string            `json:"priorityClassName,omitempty"`
	Priority                      *int32            `json:"priority,omitempty"`
}

// Container is one container of a pod.
type Container struct {
	Name                     string               `json:"name"`
	Image                    string               `json:"image,omitempty"`
	Command                  []string             `json:"command,omitempty"`
	Args                     []string             `json:"args,omitempty"`
	WorkingDir               string               `json:"workingDir,omitempty"`
	Ports                    []ContainerPort      `json:"ports,omitempty"`
	Env                      []EnvVar             `json:"env,omitempty"`
	Resources                ResourceRequirements `json:"resources,omitempty"`
	TerminationMessagePath   string               `json:"terminationMessagePath,omitempty"`
	TerminationMessagePolicy string               `json:"terminationMessagePolicy,omitempty"`
	ImagePullPolicy          PullPolicy           `json:"imagePullPolicy,omitempty"`
}

// ContainerPort is a port a container listens on.
type ContainerPort struct {
	Name          string   `json:"name,omitempty"`
	HostPort      int32    `json:"hostPort,omitempty"`
	ContainerPort int32    `json:"containerPort"`
	Protocol      Protocol `json:"protocol,omitempty"`
	HostIP        string   `json:"hostIP,omitempty"`
}

// EnvVar is one environment variable; only literal values are modelled.
type EnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}

// ResourceRequirements: requests are what the scheduler reserves, limits
// what the container may not exceed.
type ResourceRequirements struct {
	Limits   ResourceList `json:"limits,omitempty"`
	Requests ResourceList `json:"requests,omitempty"`
}

// Affinity holds scheduling constraints; only node affinity is modelled.
type Affinity struct {
	NodeAffinity *NodeAffinity `json:"nodeAffinity,omitempty"`
}

// NodeAffinity: the required terms must match for a node to be feasible.
type NodeAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution *NodeSelector `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// NodeSelector is an OR of terms.
type NodeSelector struct {
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms"`
}

// NodeSelectorTerm is an AND of requirements on node labels or fields.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty"`
	MatchFields      []NodeSelectorRequirement `json:"matchFields,omitempty"`
}

// NodeSelectorRequirement is one requirement: key operator values.
type NodeSelectorRequirement struct {
	Key      string               `json:"key"`
	Operator NodeSelectorOperator `json:"operator"`
	Values   []string             `json:"values,omitempty"`
}

// NodeSelectorOperator relates a key to values.
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

// Toleration lets a pod schedule onto (or stay on) a node with a matching taint.
type Toleration struct {
	Key               string             `json:"key,omitempty"`
	Operator          TolerationOperator `json:"operator,omitempty"`
	Value             string             `json:"value,omitempty"`
	Effect            TaintEffect        `json:"effect,omitempty"`
	TolerationSeconds *int64             `json:"tolerationSeconds,omitempty"`
}

// TolerationOperator: Equal compares the value, Exists ignores it.
type TolerationOperator string

// The toleration operators.
const (
	TolerationOpExists TolerationOperator = "Exists"
	TolerationOpEqual  TolerationOperator = "Equal"
)

// RestartPolicy says what the kubelet does when a container exits.
type RestartPolicy string

// The restart policies.
const (
	RestartPolicyAlways    RestartPolicy = "Always"
	RestartPolicyOnFailure RestartPolicy = "OnFailure"
	RestartPolicyNever     RestartPolicy = "Never"
)

// PullPolicy says when the image is pulled.
type PullPolicy string

// The pull policies.
const (
	PullAlways       PullPolicy = "Always"
	PullNever        PullPolicy = "Never"
	PullIfNotPresent PullPolicy = "IfNotPresent"
)

// Protocol is a port's transport protocol.
type Protocol string

// The protocols.
const (
	ProtocolTCP  Protocol = "TCP"
	ProtocolUDP  Protocol = "UDP"
	ProtocolSCTP Protocol = "SCTP"
)

// DefaultSchedulerName is the scheduler a pod gets when it names none.
const DefaultSchedulerName = "default-scheduler"

// PodStatus is what the kubelet (and scheduler) report.
type PodStatus struct {
	Phase             PodPhase          `json:"phase,omitempty"`
	Conditions        []PodCondition    `json:"conditions,omitempty"`
	Message           string            `json:"message,omitempty"`
	Reason            string            `json:"reason,omitempty"`
	NominatedNodeName string            `json:"nominatedNodeName,omitempty"`
	HostIP            string            `json:"hostIP,omitempty"`
	PodIP             string            `json:"podIP,omitempty"`
	PodIPs            []PodIP           `json:"podIPs,omitempty"`
	StartTime         *Time             `json:"startTime,omitempty"`
	ContainerStatuses []ContainerStatus `json:"containerStatuses,omitempty"`
	QOSClass          string            `json:"qosClass,omitempty"`
}

// PodIP is one address of a pod.
type PodIP struct {
	IP string `json:"ip"`
}

// PodPhase is the coarse lifecycle state of a pod.
type PodPhase string

// The pod phases.
const (
	PodPending   PodPhase = "Pending"
	PodRunning   PodPhase = "Running"
	PodSucceeded PodPhase = "Succeeded"
	PodFailed    PodPhase = "Failed"
	PodUnknown   PodPhase = "Unknown"
)

// PodConditionType names one pod condition.
type PodConditionType string

// The pod conditions.
const (
	PodScheduled              PodConditionType = "PodScheduled"
	PodReadyToStartContainers PodConditionType = "PodReadyToStartContainers"
	PodInitialized            PodConditionType = "Initialized"
	ContainersReady           PodConditionType = "ContainersReady"
	PodReady                  PodConditionType = "Ready"
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
	Type               PodConditionType `json:"type"`
	Status             ConditionStatus  `json:"status"`
	LastProbeTime      Time             `json:"lastProbeTime,omitempty"`
	LastTransitionTime Time             `json:"lastTransitionTime,omitempty"`
	Reason             string           `json:"reason,omitempty"`
	Message            string           `json:"message,omitempty"`
}

// ContainerStatus is the kubelet's report on one container.
type ContainerStatus struct {
	Name                 string         `json:"name"`
	State                ContainerState `json:"state,omitempty"`
	LastTerminationState ContainerState `json:"lastState,omitempty"`
	Ready                bool           `json:"ready"`
	RestartCount         int32          `json:"restartCount"`
	Image                string         `json:"image"`
	ImageID              string         `json:"imageID"`
	ContainerID          string         `json:"containerID,omitempty"`
	Started              *bool          `json:"started,omitempty"`
}

// ContainerState: exactly one member is set.
type ContainerState struct {
	Waiting    *ContainerStateWaiting    `json:"waiting,omitempty"`
	Running    *ContainerStateRunning    `json:"running,omitempty"`
	Terminated *ContainerStateTerminated `json:"terminated,omitempty"`
}

// ContainerStateWaiting: not running yet (pulling, crash back-off...).
type ContainerStateWaiting struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// ContainerStateRunning: running since StartedAt.
type ContainerStateRunning struct {
	StartedAt Time `json:"startedAt,omitempty"`
}

// ContainerStateTerminated: exited.
type ContainerStateTerminated struct {
	ExitCode    int32  `json:"exitCode"`
	Signal      int32  `json:"signal,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Message     string `json:"message,omitempty"`
	StartedAt   Time   `json:"startedAt,omitempty"`
	FinishedAt  Time   `json:"finishedAt,omitempty"`
	ContainerID string `json:"containerID,omitempty"`
}
