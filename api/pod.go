package api

// The pod's types are split by concept: the kind and its spec here, the
// spec's smaller parts in pod_spec.go, scheduling in pod_scheduling.go and
// pod_affinity.go, containers in pod_container.go, pod_env.go, pod_mount.go
// and pod_probe.go, resources in pod_resources.go, status in pod_status.go
// and pod_container_status.go, volumes in pod_volume.go and security in
// pod_security.go.

// Pod is one or more containers scheduled together onto a node
// (core/v1, k8s.io/api/core/v1/types.go).
type Pod struct {
	// Kind and API version of the object ("Pod", "v1").
	TypeMeta `json:",inline"`
	// Name, namespace, labels and the other metadata every object carries.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// What the pod should run and how; written by the user.
	Spec PodSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// What the kubelet and scheduler last observed about the pod; written
	// by the system, possibly lagging behind the node.
	Status PodStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// PodList is a list of Pods.
type PodList = List[Pod, *Pod]

// PodSpec is the desired state of a pod: its containers and volumes, and how
// and where they should run.
type PodSpec struct {
	// Volumes the pod's containers can mount, each with a name unique within
	// the pod.
	Volumes []Volume `json:"volumes,omitempty" protobuf:"bytes,1,rep,name=volumes" patchStrategy:"merge,retainKeys" patchMergeKey:"name" listType:"map" listMapKey:"name"`
	// Containers run one at a time, each to successful completion, before
	// the regular containers start; a failing one is retried or fails the
	// pod according to restartPolicy. One with restartPolicy Always is a
	// sidecar that keeps running alongside the regular containers. Cannot be
	// changed after creation.
	InitContainers []Container `json:"initContainers,omitempty" protobuf:"bytes,20,rep,name=initContainers" patchStrategy:"merge" patchMergeKey:"name" listType:"map" listMapKey:"name"`
	// The pod's main containers; at least one is required. Container names
	// are unique across all kinds of container in the pod. Cannot be changed
	// after creation.
	Containers []Container `json:"containers" protobuf:"bytes,2,rep,name=containers" patchStrategy:"merge" patchMergeKey:"name" listType:"map" listMapKey:"name"`
	// Containers added to a running pod for a while, typically to debug it.
	// They are added only through the pods/ephemeralcontainers subresource,
	// never on create or by updating the pod.
	EphemeralContainers []EphemeralContainer `json:"ephemeralContainers,omitempty" protobuf:"bytes,34,rep,name=ephemeralContainers" patchStrategy:"merge" patchMergeKey:"name" listType:"map" listMapKey:"name"`
	// What the kubelet does when a container exits: Always (the default),
	// OnFailure or Never. Controllers may allow only some of these.
	RestartPolicy RestartPolicy `json:"restartPolicy,omitempty" protobuf:"bytes,3,opt,name=restartPolicy"`
	// Seconds between the stop signal and the forced kill when the pod is
	// deleted; 0 kills at once. Defaults to 30; a delete request can shorten
	// it.
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty" protobuf:"varint,4,opt,name=terminationGracePeriodSeconds"`
	// How long, in seconds from status.startTime, the pod may run before it
	// is failed and its containers killed. Must be positive; unset means no
	// limit.
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty" protobuf:"varint,5,opt,name=activeDeadlineSeconds"`
	// How the pod's DNS resolver is configured: ClusterFirst (the default),
	// ClusterFirstWithHostNet, Default (the node's resolver) or None (only
	// dnsConfig). dnsConfig is applied on top of the chosen policy.
	DNSPolicy string `json:"dnsPolicy,omitempty" protobuf:"bytes,6,opt,name=dnsPolicy"`
	// Labels a node must have, with exactly these values, for the pod to be
	// placed on it.
	NodeSelector map[string]string `json:"nodeSelector,omitempty" protobuf:"bytes,7,rep,name=nodeSelector" mapType:"atomic"`
	// Name of the ServiceAccount, in the pod's namespace, whose identity the
	// pod runs with.
	ServiceAccountName string `json:"serviceAccountName,omitempty" protobuf:"bytes,8,opt,name=serviceAccountName"`
	// Older name of serviceAccountName. Deprecated: use serviceAccountName.
	DeprecatedServiceAccount string `json:"serviceAccount,omitempty" protobuf:"bytes,9,opt,name=serviceAccount"`
	// Whether the service account's API token is mounted into the
	// containers; unset leaves the choice to the ServiceAccount.
	AutomountServiceAccountToken *bool `json:"automountServiceAccountToken,omitempty" protobuf:"varint,21,opt,name=automountServiceAccountToken"`
	// The node the pod is bound to. Empty means not yet scheduled: the
	// scheduler named in schedulerName will choose one. Once set, that node's
	// kubelet runs the pod; setting it on create bypasses the scheduler.
	NodeName string `json:"nodeName,omitempty" protobuf:"bytes,10,opt,name=nodeName"`
	// Run in the node's network namespace rather than the pod's own. Host
	// ports must then equal container ports. Default false.
	HostNetwork bool `json:"hostNetwork,omitempty" protobuf:"varint,11,opt,name=hostNetwork"`
	// Run in the node's process ID namespace. Default false.
	HostPID bool `json:"hostPID,omitempty" protobuf:"varint,12,opt,name=hostPID"`
	// Run in the node's IPC namespace. Default false.
	HostIPC bool `json:"hostIPC,omitempty" protobuf:"varint,13,opt,name=hostIPC"`
	// Put all containers of the pod into one process namespace, so each can
	// see and signal the others' processes (and no container's first process
	// is PID 1). Not allowed together with hostPID. Default false.
	ShareProcessNamespace *bool `json:"shareProcessNamespace,omitempty" protobuf:"varint,27,opt,name=shareProcessNamespace"`
	// Security settings for the whole pod; several of them are also the
	// defaults for each container's securityContext.
	SecurityContext *PodSecurityContext `json:"securityContext,omitempty" protobuf:"bytes,14,opt,name=securityContext"`
	// Secrets in the pod's namespace holding registry credentials for pulling
	// the containers' images.
	ImagePullSecrets []LocalObjectReference `json:"imagePullSecrets,omitempty" protobuf:"bytes,15,rep,name=imagePullSecrets" patchStrategy:"merge" patchMergeKey:"name" listType:"map" listMapKey:"name" structType:"atomic"`
	// Host name the pod sees; when empty the system chooses one (normally
	// the pod's name).
	Hostname string `json:"hostname,omitempty" protobuf:"bytes,16,opt,name=hostname"`
	// DNS subdomain of the pod: with it the pod's fully qualified name is
	// "<hostname>.<subdomain>.<namespace>.svc.<cluster domain>"; without it
	// the pod has no domain name.
	Subdomain string `json:"subdomain,omitempty" protobuf:"bytes,17,opt,name=subdomain"`
	// Node affinity, pod affinity and pod anti-affinity rules the scheduler
	// applies.
	Affinity *Affinity `json:"affinity,omitempty" protobuf:"bytes,18,opt,name=affinity"`
	// Name of the scheduler responsible for placing the pod; defaults to
	// "default-scheduler".
	SchedulerName string `json:"schedulerName,omitempty" protobuf:"bytes,19,opt,name=schedulerName"`
	// Taints this pod tolerates, so that it may be scheduled onto (or stay
	// on) nodes that carry them.
	Tolerations []Toleration `json:"tolerations,omitempty" protobuf:"bytes,22,rep,name=tolerations" listType:"atomic"`
	// Extra entries for the pod's /etc/hosts file, one per IP address.
	HostAliases []HostAlias `json:"hostAliases,omitempty" protobuf:"bytes,23,rep,name=hostAliases" patchStrategy:"merge" patchMergeKey:"ip" listType:"map" listMapKey:"ip"`
	// Name of the PriorityClass that gives the pod its priority. The built-in
	// classes system-node-critical and system-cluster-critical are the
	// highest; empty means the cluster's default class, or priority 0.
	PriorityClassName string `json:"priorityClassName,omitempty" protobuf:"bytes,24,opt,name=priorityClassName"`
	// Numeric priority of the pod; higher is more important. Admission fills
	// it in from priorityClassName, and users normally leave it unset.
	Priority *int32 `json:"priority,omitempty" protobuf:"varint,25,opt,name=priority"`
	// Nameservers, search domains and resolver options merged into the DNS
	// configuration that dnsPolicy produces.
	DNSConfig *PodDNSConfig `json:"dnsConfig,omitempty" protobuf:"bytes,26,opt,name=dnsConfig"`
	// Extra pod conditions that must all be True, besides every container
	// being ready, before the pod counts as Ready.
	ReadinessGates []PodReadinessGate `json:"readinessGates,omitempty" protobuf:"bytes,28,rep,name=readinessGates" listType:"atomic"`
	// Name of the RuntimeClass (node.k8s.io) that picks the container runtime
	// handler; the pod will not run if no such class exists. Unset means the
	// node's default handler.
	RuntimeClassName *string `json:"runtimeClassName,omitempty" protobuf:"bytes,29,opt,name=runtimeClassName"`
	// Whether environment variables describing the namespace's services, in
	// the style of Docker links, are injected into the containers. Default
	// true.
	EnableServiceLinks *bool `json:"enableServiceLinks,omitempty" protobuf:"varint,30,opt,name=enableServiceLinks"`
	// Whether the pod may evict lower-priority pods to make room:
	// PreemptLowerPriority (the default) or Never. Admission fills it in from
	// the priority class.
	PreemptionPolicy *PreemptionPolicy `json:"preemptionPolicy,omitempty" protobuf:"bytes,31,opt,name=preemptionPolicy"`
	// Resources the pod's runtime class uses on top of what the containers
	// request, counted by the scheduler and the kubelet. Normally filled in
	// at admission from the RuntimeClass rather than set by users.
	Overhead ResourceList `json:"overhead,omitempty" protobuf:"bytes,32,rep,name=overhead"`
	// Rules for spreading matching pods evenly over topology domains such as
	// zones or nodes; all of them apply.
	TopologySpreadConstraints []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty" protobuf:"bytes,33,rep,name=topologySpreadConstraints" patchStrategy:"merge" patchMergeKey:"topologyKey" listType:"map" listMapKey:"topologyKey,whenUnsatisfiable"`
	// Set the kernel's host name to the pod's fully qualified domain name
	// instead of the short name. No effect when the pod has no domain.
	// Default false.
	SetHostnameAsFQDN *bool `json:"setHostnameAsFQDN,omitempty" protobuf:"varint,35,opt,name=setHostnameAsFQDN"`
	// Operating system the containers need. When set, validation rejects
	// pod and container fields that do not apply to that OS (for windows,
	// most Linux security settings; for linux, windowsOptions).
	OS *PodOS `json:"os,omitempty" protobuf:"bytes,36,opt,name=os"`
	// Whether the pod runs in the node's user namespace (the default). False
	// gives the pod its own user namespace, so root inside a container is not
	// root on the node.
	HostUsers *bool `json:"hostUsers,omitempty" protobuf:"varint,37,opt,name=hostUsers"`
	// While any gate remains, the scheduler does not try to place the pod.
	// Gates can be given only on create and afterwards only removed.
	SchedulingGates []PodSchedulingGate `json:"schedulingGates,omitempty" protobuf:"bytes,38,rep,name=schedulingGates" patchStrategy:"merge" patchMergeKey:"name" listType:"map" listMapKey:"name"`
	// Dynamic resource allocation claims that must be allocated and reserved
	// before the pod can start; containers use them by name in
	// resources.claims. Immutable.
	ResourceClaims []PodResourceClaim `json:"resourceClaims,omitempty" protobuf:"bytes,39,rep,name=resourceClaims" patchStrategy:"merge,retainKeys" patchMergeKey:"name" listType:"map" listMapKey:"name"`
	// Requests and limits for the pod as a whole, shared by its containers.
	// Only cpu, memory and hugepages-* are allowed, and no claims.
	Resources *ResourceRequirements `json:"resources,omitempty" protobuf:"bytes,40,opt,name=resources"`
	// Host name the pod sees, taking precedence over hostname and subdomain;
	// DNS records are not affected. Requires hostNetwork false and
	// setHostnameAsFQDN unset or false; a DNS subdomain of at most 64
	// characters.
	HostnameOverride *string `json:"hostnameOverride,omitempty" protobuf:"bytes,41,opt,name=hostnameOverride"`
	// The scheduling group (such as a PodGroup) this pod belongs to, whose
	// policies the scheduler applies to all members together. The group need
	// not exist yet. Immutable.
	SchedulingGroup *PodSchedulingGroup `json:"schedulingGroup,omitempty" protobuf:"bytes,43,opt,name=schedulingGroup"`
	// Controllers that handle an eviction request for this pod before it is
	// evicted, tried from the highest priority down. At most 10; set only on
	// create and not allowed with schedulingGroup.
	EvictionResponders []EvictionResponder `json:"evictionResponders,omitempty" protobuf:"bytes,44,rep,name=evictionResponders" patchStrategy:"merge" patchMergeKey:"name" listType:"map" listMapKey:"name" structType:"atomic"`
}

// RestartPolicy says what the kubelet does when a container of the pod exits:
// Always restarts it, OnFailure restarts it only after a non-zero exit, Never
// leaves it stopped. The default is Always.
type RestartPolicy string

// The restart policies.
const (
	RestartPolicyAlways    RestartPolicy = "Always"
	RestartPolicyOnFailure RestartPolicy = "OnFailure"
	RestartPolicyNever     RestartPolicy = "Never"
)

// DNSPolicy says how a pod's DNS resolver is set up: ClusterFirst (cluster DNS
// first, then the node's upstream; the node's resolver when hostNetwork is
// set), ClusterFirstWithHostNet (cluster DNS even with hostNetwork), Default
// (the node's resolver) or None (only what dnsConfig gives).
type DNSPolicy string

// The DNS policies.
const (
	DNSClusterFirstWithHostNet DNSPolicy = "ClusterFirstWithHostNet"
	DNSClusterFirst            DNSPolicy = "ClusterFirst"
	DNSDefault                 DNSPolicy = "Default"
	DNSNone                    DNSPolicy = "None"
)
