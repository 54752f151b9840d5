package api

// Node is a machine pods run on; in kubeloop a simulated kubelet registers
// and heartbeats it (core/v1).
type Node struct {
	// Kind "Node" and apiVersion "v1".
	TypeMeta `json:",inline"`
	// Standard object metadata; nodes are cluster-scoped, so there is no namespace.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// How the node may be used: pod address ranges, taints, cordoning.
	Spec NodeSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// What the kubelet last reported about the node.
	Status NodeStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// NodeList is a list of Nodes.
type NodeList = List[Node, *Node]

// NodeSpec is how the node may be used.
type NodeSpec struct {
	// IP range (CIDR) pod addresses on this node come from; the first entry of podCIDRs.
	PodCIDR string `json:"podCIDR,omitempty" protobuf:"bytes,1,opt,name=podCIDR"`
	// IP ranges for pods on this node, at most one IPv4 and one IPv6; the
	// first must equal podCIDR.
	PodCIDRs []string `json:"podCIDRs,omitempty" protobuf:"bytes,7,rep,name=podCIDRs" patchStrategy:"merge" listType:"set"`
	// The cloud provider's ID of the machine, as "<provider>://<id>".
	ProviderID string `json:"providerID,omitempty" protobuf:"bytes,3,opt,name=providerID"`
	// When true (kubectl cordon), the scheduler places no new pods here;
	// pods already running stay. Default false.
	Unschedulable bool `json:"unschedulable,omitempty" protobuf:"varint,4,opt,name=unschedulable"`
	// Taints that keep away pods that do not tolerate them.
	Taints []Taint `json:"taints,omitempty" protobuf:"bytes,5,rep,name=taints" listType:"atomic"`
	// Deprecated: dynamic kubelet configuration was removed; ignored.
	ConfigSource *NodeConfigSource `json:"configSource,omitempty" protobuf:"bytes,6,opt,name=configSource"`
	// Deprecated: kubelets no longer set it; use providerID.
	DoNotUseExternalID string `json:"externalID,omitempty" protobuf:"bytes,2,opt,name=externalID"`
	// Node-level preemption settings for pods here (alpha).
	PodPreemptionPolicy *NodePodPreemptionPolicy `json:"podPreemptionPolicy,omitempty" protobuf:"bytes,8,opt,name=podPreemptionPolicy"`
}

// Taint repels pods that do not tolerate it.
type Taint struct {
	// Taint key, such as "node.kubernetes.io/unreachable". Required.
	Key string `json:"key" protobuf:"bytes,1,opt,name=key"`
	// Optional value a toleration can match.
	Value string `json:"value,omitempty" protobuf:"bytes,2,opt,name=value"`
	// What happens to pods that do not tolerate it: NoSchedule,
	// PreferNoSchedule or NoExecute. Required.
	Effect TaintEffect `json:"effect" protobuf:"bytes,3,opt,name=effect"`
	// When the taint was put on; set for NoExecute taints.
	TimeAdded *Time `json:"timeAdded,omitempty" protobuf:"bytes,4,opt,name=timeAdded"`
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

// NodeStatus is what the kubelet reports about its node.
type NodeStatus struct {
	// Total resources of the node (cpu, memory, pods, ...).
	Capacity ResourceList `json:"capacity,omitempty" protobuf:"bytes,1,rep,name=capacity"`
	// Part of capacity the scheduler may hand to pods; equals capacity when unset.
	Allocatable ResourceList `json:"allocatable,omitempty" protobuf:"bytes,2,rep,name=allocatable"`
	// Deprecated: never set by Kubernetes; read conditions instead.
	Phase NodePhase `json:"phase,omitempty" protobuf:"bytes,3,opt,name=phase"`
	// Current observations (Ready, MemoryPressure, ...), one per type.
	Conditions []NodeCondition `json:"conditions,omitempty" protobuf:"bytes,4,rep,name=conditions" patchStrategy:"merge" patchMergeKey:"type" listType:"map" listMapKey:"type"`
	// Addresses the node is reachable at, one entry per address. The merge
	// key type is not unique, so replace the whole list rather than merge it.
	Addresses []NodeAddress `json:"addresses,omitempty" protobuf:"bytes,5,rep,name=addresses" patchStrategy:"merge" patchMergeKey:"type" listType:"map" listMapKey:"type"`
	// Ports the node's daemons (the kubelet) listen on.
	DaemonEndpoints NodeDaemonEndpoints `json:"daemonEndpoints,omitempty" protobuf:"bytes,6,opt,name=daemonEndpoints"`
	// Identity and software versions of the machine.
	NodeInfo NodeSystemInfo `json:"nodeInfo,omitempty" protobuf:"bytes,7,opt,name=nodeInfo"`
	// Container images present on the node.
	Images []ContainerImage `json:"images,omitempty" protobuf:"bytes,8,rep,name=images" listType:"atomic"`
	// Attachable volumes the node has mounted.
	VolumesInUse []UniqueVolumeName `json:"volumesInUse,omitempty" protobuf:"bytes,9,rep,name=volumesInUse" listType:"atomic"`
	// Volumes attached to the node.
	VolumesAttached []AttachedVolume `json:"volumesAttached,omitempty" protobuf:"bytes,10,rep,name=volumesAttached" listType:"atomic"`
	// Deprecated: status of the removed dynamic kubelet configuration.
	Config *NodeConfigStatus `json:"config,omitempty" protobuf:"bytes,11,opt,name=config"`
	// Runtime handlers (RuntimeClasses) the container runtime offers.
	RuntimeHandlers []NodeRuntimeHandler `json:"runtimeHandlers,omitempty" protobuf:"bytes,12,rep,name=runtimeHandlers" listType:"atomic"`
	// Optional features the container runtime supports.
	Features *NodeFeatures `json:"features,omitempty" protobuf:"bytes,13,opt,name=features"`
	// Names of feature-gated features the node declares it has.
	DeclaredFeatures []string `json:"declaredFeatures,omitempty" protobuf:"bytes,14,rep,name=declaredFeatures" listType:"atomic"`
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
	// Which condition this is, such as "Ready".
	Type NodeConditionType `json:"type" protobuf:"bytes,1,opt,name=type"`
	// "True", "False" or "Unknown".
	Status ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status"`
	// When the kubelet last reported this condition.
	LastHeartbeatTime Time `json:"lastHeartbeatTime,omitempty" protobuf:"bytes,3,opt,name=lastHeartbeatTime"`
	// When the status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	// Machine-readable CamelCase cause of the last transition.
	Reason string `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	// Human-readable details of the last transition.
	Message string `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
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
	// Kind of address: Hostname, InternalIP, ExternalIP, InternalDNS or ExternalDNS.
	Type NodeAddressType `json:"type" protobuf:"bytes,1,opt,name=type"`
	// The address itself: an IP or a DNS name.
	Address string `json:"address" protobuf:"bytes,2,opt,name=address"`
}

// NodeSystemInfo describes the node's software.
// ---
// None of the fields is omitempty in Kubernetes, so an empty nodeInfo
// still prints every key.
type NodeSystemInfo struct {
	// The machine-id of the host (see machine-id(5)); the preferred unique ID.
	MachineID string `json:"machineID" protobuf:"bytes,1,opt,name=machineID"`
	// The hardware (SMBIOS) UUID of the host.
	SystemUUID string `json:"systemUUID" protobuf:"bytes,2,opt,name=systemUUID"`
	// ID of the current boot; it changes when the node reboots.
	BootID string `json:"bootID" protobuf:"bytes,3,opt,name=bootID"`
	// Kernel release, as "uname -r" prints it.
	KernelVersion string `json:"kernelVersion" protobuf:"bytes,4,opt,name=kernelVersion"`
	// Operating system name from /etc/os-release, such as "Debian GNU/Linux 12".
	OSImage string `json:"osImage" protobuf:"bytes,5,opt,name=osImage"`
	// Runtime and version, such as "containerd://1.7.2".
	ContainerRuntimeVersion string `json:"containerRuntimeVersion" protobuf:"bytes,6,opt,name=containerRuntimeVersion"`
	// Version of the kubelet, such as "v1.37.2".
	KubeletVersion string `json:"kubeletVersion" protobuf:"bytes,7,opt,name=kubeletVersion"`
	// Deprecated: not reliably set; do not use.
	KubeProxyVersion string `json:"kubeProxyVersion" protobuf:"bytes,8,opt,name=kubeProxyVersion"`
	// Operating system family, GOOS style: "linux" or "windows".
	OperatingSystem string `json:"operatingSystem" protobuf:"bytes,9,opt,name=operatingSystem"`
	// CPU architecture, GOARCH style: "amd64", "arm64", ...
	Architecture string `json:"architecture" protobuf:"bytes,10,opt,name=architecture"`
	// Swap memory of the node.
	Swap *NodeSwapStatus `json:"swap,omitempty" protobuf:"bytes,11,opt,name=swap"`
	// Whether the kubelet itself runs inside a user namespace.
	RunningInUserNamespace *bool `json:"runningInUserNamespace,omitempty" protobuf:"varint,12,opt,name=runningInUserNamespace"`
}

// NodeConfigSource named the ConfigMap a node took its kubelet
// configuration from. Deprecated: dynamic kubelet configuration was removed.
type NodeConfigSource struct {
	// The ConfigMap holding the configuration.
	ConfigMap *ConfigMapNodeConfigSource `json:"configMap,omitempty" protobuf:"bytes,2,opt,name=configMap"`
}

// NodePodPreemptionPolicy holds node-level preemption settings (alpha).
type NodePodPreemptionPolicy struct {
	// Parties (autoscalers, operators, admins) that asked for no preemption
	// to make room for in-place pod resizes here; any entry turns it off.
	DisableResizePreemption []string `json:"disableResizePreemption,omitempty" protobuf:"bytes,1,rep,name=disableResizePreemption" listType:"set"`
}

// NodeDaemonEndpoints lists the ports of daemons running on a node.
type NodeDaemonEndpoints struct {
	// Where the kubelet's API listens.
	KubeletEndpoint DaemonEndpoint `json:"kubeletEndpoint,omitempty" protobuf:"bytes,1,opt,name=kubeletEndpoint"`
}

// ContainerImage is one image stored on a node.
type ContainerImage struct {
	// References the image is known by, such as "registry.example/app:v1"
	// and its digest form.
	Names []string `json:"names" protobuf:"bytes,1,rep,name=names" listType:"atomic"`
	// Size of the image, in bytes.
	SizeBytes int64 `json:"sizeBytes,omitempty" protobuf:"varint,2,opt,name=sizeBytes"`
}

// AttachedVolume is a volume attached to a node.
type AttachedVolume struct {
	// Unique name of the volume.
	Name UniqueVolumeName `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Device path on the node where the volume shows up.
	DevicePath string `json:"devicePath" protobuf:"bytes,2,opt,name=devicePath"`
}

// NodeConfigStatus reported how a node applied its dynamic configuration.
// Deprecated: dynamic kubelet configuration was removed.
type NodeConfigStatus struct {
	// Configuration the node saved and means to use.
	Assigned *NodeConfigSource `json:"assigned,omitempty" protobuf:"bytes,1,opt,name=assigned"`
	// Configuration the node is using now.
	Active *NodeConfigSource `json:"active,omitempty" protobuf:"bytes,2,opt,name=active"`
	// Configuration the node falls back to when the assigned one fails.
	LastKnownGood *NodeConfigSource `json:"lastKnownGood,omitempty" protobuf:"bytes,3,opt,name=lastKnownGood"`
	// Human-readable problem applying the configuration; empty when none.
	Error string `json:"error,omitempty" protobuf:"bytes,4,opt,name=error"`
}

// NodeRuntimeHandler is one handler of the node's container runtime.
type NodeRuntimeHandler struct {
	// Handler name, as a RuntimeClass refers to it; empty for the default handler.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Optional features the handler supports.
	Features *NodeRuntimeHandlerFeatures `json:"features,omitempty" protobuf:"bytes,2,opt,name=features"`
}

// NodeFeatures lists optional features the node's container runtime has.
type NodeFeatures struct {
	// True if the runtime honours supplementalGroupsPolicy (and reports
	// container users).
	SupplementalGroupsPolicy *bool `json:"supplementalGroupsPolicy,omitempty" protobuf:"varint,1,opt,name=supplementalGroupsPolicy"`
}

// ConfigMapNodeConfigSource names a ConfigMap holding kubelet
// configuration. Deprecated with dynamic kubelet configuration.
type ConfigMapNodeConfigSource struct {
	// Namespace of the ConfigMap. Required.
	Namespace string `json:"namespace" protobuf:"bytes,1,opt,name=namespace"`
	// Name of the ConfigMap. Required.
	Name string `json:"name" protobuf:"bytes,2,opt,name=name"`
	// UID of the ConfigMap; set in status only, forbidden in spec.
	UID string `json:"uid,omitempty" protobuf:"bytes,3,opt,name=uid"`
	// Resource version of the ConfigMap; set in status only, forbidden in spec.
	ResourceVersion string `json:"resourceVersion,omitempty" protobuf:"bytes,4,opt,name=resourceVersion"`
	// Key of the ConfigMap whose value is the KubeletConfiguration. Required.
	KubeletConfigKey string `json:"kubeletConfigKey" protobuf:"bytes,5,opt,name=kubeletConfigKey"`
}

// DaemonEndpoint is a port a node daemon listens on.
type DaemonEndpoint struct {
	// Port number. The JSON key is "Port", capitalised, for compatibility
	// with old releases.
	Port int32 `json:"Port" protobuf:"varint,1,opt,name=Port"`
}

// NodeSwapStatus describes a node's swap memory.
type NodeSwapStatus struct {
	// Total swap, in bytes.
	Capacity *int64 `json:"capacity,omitempty" protobuf:"varint,1,opt,name=capacity"`
}

// NodeRuntimeHandlerFeatures lists optional features of a runtime handler.
type NodeRuntimeHandlerFeatures struct {
	// True if the handler can make read-only mounts read-only all the way down.
	RecursiveReadOnlyMounts *bool `json:"recursiveReadOnlyMounts,omitempty" protobuf:"varint,1,opt,name=recursiveReadOnlyMounts"`
	// True if the handler supports user namespaces, volumes included.
	UserNamespaces *bool `json:"userNamespaces,omitempty" protobuf:"varint,2,opt,name=userNamespaces"`
}

// NodePhase is a node's lifecycle phase: "Pending", "Running" or
// "Terminated". Deprecated: Kubernetes never sets it.
type NodePhase string

// The node phases.
const (
	// NodePending: the node exists but is not configured yet.
	NodePending NodePhase = "Pending"
	// NodeRunning: the node is configured and its components run.
	NodeRunning NodePhase = "Running"
	// NodeTerminated: the node has left the cluster.
	NodeTerminated NodePhase = "Terminated"
)

// UniqueVolumeName is a volume's name, unique on the node, that its volume
// plugin builds (for CSI: "kubernetes.io/csi/<driver>^<volume-handle>").
type UniqueVolumeName string
