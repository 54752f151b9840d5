package api

// Node is a machine pods run on; in kubeloop a simulated kubelet registers
// and heartbeats it (core/v1).
type Node struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       NodeSpec   `json:"spec,omitempty"`
	Status     NodeStatus `json:"status,omitempty"`
}

// NodeList is a list of Nodes.
type NodeList = List[Node, *Node]

// NodeSpec: how the node may be used.
type NodeSpec struct {
	PodCIDR       string   `json:"podCIDR,omitempty"`
	PodCIDRs      []string `json:"podCIDRs,omitempty"`
	ProviderID    string   `json:"providerID,omitempty"`
	Unschedulable bool     `json:"unschedulable,omitempty"`
	Taints        []Taint  `json:"taints,omitempty"`
}

// Taint repels pods that do not tolerate it.
type Taint struct {
	Key       string      `json:"key"`
	Value     string      `json:"value,omitempty"`
	Effect    TaintEffect `json:"effect"`
	TimeAdded *Time       `json:"timeAdded,omitempty"`
}

// TaintEffect says what a taint does to pods that do not tolerate it.
type TaintEffect string

// The taint effects.
const (
	TaintEffectNoSchedule       TaintEffect = "NoSchedule"
	TaintEffectPreferNoSchedule TaintEffect = "PreferNoSchedule"
	TaintEffectNoExecute        TaintEffect = "NoExecute"
)

// Taint keys the node lifecycle controller and kubectl cordon use.
const (
	TaintNodeNotReady      = "node.kubernetes.io/not-ready"
	TaintNodeUnreachable   = "node.kubernetes.io/unreachable"
	TaintNodeUnschedulable = "node.kubernetes.io/unschedulable"
)

// NodeStatus is what the kubelet reports.
type NodeStatus struct {
	Capacity    ResourceList    `json:"capacity,omitempty"`
	Allocatable ResourceList    `json:"allocatable,omitempty"`
	Conditions  []NodeCondition `json:"conditions,omitempty"`
	Addresses   []NodeAddress   `json:"addresses,omitempty"`
	NodeInfo    NodeSystemInfo  `json:"nodeInfo,omitempty"`
}

// NodeConditionType names one node condition.
type NodeConditionType string

// The node conditions.
const (
	NodeReady              NodeConditionType = "Ready"
	NodeMemoryPressure     NodeConditionType = "MemoryPressure"
	NodeDiskPressure       NodeConditionType = "DiskPressure"
	NodePIDPressure        NodeConditionType = "PIDPressure"
	NodeNetworkUnavailable NodeConditionType = "NetworkUnavailable"
)

// NodeCondition is one observation about a node; LastHeartbeatTime is how
// the node lifecycle controller tells a live kubelet from a dead one.
type NodeCondition struct {
	Type               NodeConditionType `json:"type"`
	Status             ConditionStatus   `json:"status"`
	LastHeartbeatTime  Time              `json:"lastHeartbeatTime,omitempty"`
	LastTransitionTime Time              `json:"lastTransitionTime,omitempty"`
	Reason             string            `json:"reason,omitempty"`
	Message            string            `json:"message,omitempty"`
}

// NodeAddressType is the kind of a node address.
type NodeAddressType string

// The node address types.
const (
	NodeHostName    NodeAddressType = "Hostname"
	NodeInternalIP  NodeAddressType = "InternalIP"
	NodeExternalIP  NodeAddressType = "ExternalIP"
	NodeInternalDNS NodeAddressType = "InternalDNS"
	NodeExternalDNS NodeAddressType = "ExternalDNS"
)

// NodeAddress is one address of a node.
type NodeAddress struct {
	Type    NodeAddressType `json:"type"`
	Address string          `json:"address"`
}

// NodeSystemInfo describes the node's software. None of the fields is
// omitempty in Kubernetes, so an empty nodeInfo still prints every key.
type NodeSystemInfo struct {
	MachineID               string `json:"machineID"`
	SystemUUID              string `json:"systemUUID"`
	BootID                  string `json:"bootID"`
	KernelVersion           string `json:"kernelVersion"`
	OSImage                 string `json:"osImage"`
	ContainerRuntimeVersion string `json:"containerRuntimeVersion"`
	KubeletVersion          string `json:"kubeletVersion"`
	KubeProxyVersion        string `json:"kubeProxyVersion"`
	OperatingSystem         string `json:"operatingSystem"`
	Architecture            string `json:"architecture"`
}
