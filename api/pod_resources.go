package api

// This file holds the resources of pods and containers: requests and limits,
// in-place resize, dynamic resource allocation (DRA) claims, and the status
// the kubelet and scheduler report about them.

// ResourceRequirements is the compute resources a container (or a whole pod)
// asks for: requests are what the scheduler reserves, limits what the
// container may not exceed.
type ResourceRequirements struct {
	// Most of each resource the container may use, e.g. {"cpu": "500m",
	// "memory": "256Mi"}.
	Limits ResourceList `json:"limits,omitempty" protobuf:"bytes,1,rep,name=limits"`
	// Amount of each resource reserved for the container on its node; at
	// most the limit. A resource with a limit but no request gets the limit
	// as its request.
	Requests ResourceList `json:"requests,omitempty" protobuf:"bytes,2,rep,name=requests"`
	// Entries of the pod's spec.resourceClaims this container uses. Only for
	// containers, and immutable.
	Claims []ResourceClaim `json:"claims,omitempty" protobuf:"bytes,3,rep,name=claims" listType:"map" listMapKey:"name"`
}

// ResourceClaim is a container's use of one of its pod's resource claims.
type ResourceClaim struct {
	// Name of an entry in the pod's spec.resourceClaims.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Name of one request inside that claim to use; empty gives the container
	// everything the claim allocated.
	Request string `json:"request,omitempty" protobuf:"bytes,2,opt,name=request"`
}

// PodResourceClaim gives a pod-local name to a ResourceClaim, either an
// existing one or one to be created from a ResourceClaimTemplate for this pod.
// Containers refer to it by that name. Exactly one of the two references is
// set.
type PodResourceClaim struct {
	// Name of the claim inside the pod, a DNS label unique within the pod.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Name of an existing ResourceClaim in the pod's namespace.
	ResourceClaimName *string `json:"resourceClaimName,omitempty" protobuf:"bytes,3,opt,name=resourceClaimName"`
	// Name of a ResourceClaimTemplate in the pod's namespace. A claim is
	// generated from it for this pod (or shared by the pod's PodGroup), and
	// deleted with its owner; the generated name is reported in
	// status.resourceClaimStatuses. Immutable.
	ResourceClaimTemplateName *string `json:"resourceClaimTemplateName,omitempty" protobuf:"bytes,4,opt,name=resourceClaimTemplateName"`
}

// ContainerResizePolicy says what changing one resource of a running
// container in place requires.
type ContainerResizePolicy struct {
	// The resource: cpu or memory.
	ResourceName ResourceName `json:"resourceName" protobuf:"bytes,1,opt,name=resourceName"`
	// NotRequired (the default) resizes without a restart where possible;
	// RestartContainer restarts the container to apply the new value.
	RestartPolicy ResourceResizeRestartPolicy `json:"restartPolicy" protobuf:"bytes,2,opt,name=restartPolicy"`
}

// ResourceResizeRestartPolicy is what a resource resize requires: NotRequired
// (in place, restarting only if the runtime cannot avoid it) or
// RestartContainer (for programs that read their limits only at start).
type ResourceResizeRestartPolicy string

// The resize restart policies.
const (
	NotRequired      ResourceResizeRestartPolicy = "NotRequired"
	RestartContainer ResourceResizeRestartPolicy = "RestartContainer"
)

// PodResourceClaimStatus reports the ResourceClaim generated for one entry of
// spec.resourceClaims that names a template.
type PodResourceClaimStatus struct {
	// Name of the entry in spec.resourceClaims.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Name of the ResourceClaim generated for the pod (or reserved for its
	// PodGroup), in the pod's namespace. Unset when no claim was needed, in
	// which case the entry can be ignored.
	ResourceClaimName *string `json:"resourceClaimName,omitempty" protobuf:"bytes,2,opt,name=resourceClaimName"`
}

// PodExtendedResourceClaimStatus reports the ResourceClaim the scheduler
// created to satisfy the pod's extended-resource requests through DRA.
type PodExtendedResourceClaimStatus struct {
	// Which request of the claim serves which extended resource of which
	// container.
	RequestMappings []ContainerExtendedResourceRequest `json:"requestMappings" protobuf:"bytes,1,rep,name=requestMappings" listType:"atomic"`
	// Name of the generated ResourceClaim, in the pod's namespace.
	ResourceClaimName string `json:"resourceClaimName" protobuf:"bytes,2,opt,name=resourceClaimName"`
}

// ContainerExtendedResourceRequest maps one extended resource of one
// container to a request in the generated ResourceClaim.
type ContainerExtendedResourceRequest struct {
	// Name of the container.
	ContainerName string `json:"containerName" protobuf:"bytes,1,opt,name=containerName"`
	// Name of the extended resource the container requests, e.g.
	// "example.com/gpu".
	ResourceName string `json:"resourceName" protobuf:"bytes,2,opt,name=resourceName"`
	// Name of the request in the generated claim that provides it.
	RequestName string `json:"requestName" protobuf:"bytes,3,opt,name=requestName"`
}

// NodeAllocatableResourceClaimStatus reports node resources such as cpu,
// memory or hugepages (ones in the node's status.allocatable other than
// extended resources) that a DRA claim allocated to the pod; the kubelet uses
// it to size cgroups.
type NodeAllocatableResourceClaimStatus struct {
	// Name of the pod's claim that led to the allocation. Required.
	ResourceClaimName string `json:"resourceClaimName" protobuf:"bytes,1,opt,name=resourceClaimName"`
	// Names of the pod's containers that use the claim; a set.
	Containers []string `json:"containers,omitempty" protobuf:"bytes,2,rep,name=containers" listType:"set"`
	// Amounts allocated through the devices' nodeAllocatableResources
	// mapping, one per resource name.
	Mapping []NodeAllocatableMappedResources `json:"mapping,omitempty" protobuf:"bytes,4,rep,name=mapping" patchStrategy:"merge" patchMergeKey:"name" listType:"map" listMapKey:"name"`
	// Extra amounts allocated through the devices' nodeAllocatableResources
	// overhead, one per resource name.
	Overhead []NodeAllocatableOverheadResources `json:"overhead,omitempty" protobuf:"bytes,5,rep,name=overhead" patchStrategy:"merge" patchMergeKey:"name" listType:"map" listMapKey:"name"`
}

// NodeAllocatableMappedResources is the amount of one node resource a claim's
// devices provide, shared by the containers using the claim.
type NodeAllocatableMappedResources struct {
	// The resource, e.g. cpu or memory. Required.
	Name ResourceName `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Amount allocated for the claim; the kubelet adds it to the pod's
	// cgroup requests and limits and to the limit of each container using
	// the claim. Required.
	Quantity *Quantity `json:"quantity" protobuf:"bytes,2,opt,name=quantity"`
}

// NodeAllocatableOverheadResources is an overhead of one node resource that
// comes with a claim's devices: a fixed amount per pod plus an amount per
// container using the claim. At least one of the two is set.
type NodeAllocatableOverheadResources struct {
	// The resource, e.g. cpu or memory. Required.
	Name ResourceName `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Fixed amount counted once for the pod; each using container's limit
	// is raised by it too, while the pod's cgroup caps the total.
	PerPod *Quantity `json:"perPod,omitempty" protobuf:"bytes,2,opt,name=perPod"`
	// Amount added for every container that uses the claim.
	PerContainer *Quantity `json:"perContainer,omitempty" protobuf:"bytes,3,opt,name=perContainer"`
}

// ResourceStatus reports the health of the devices behind one resource
// allocated to a container.
type ResourceStatus struct {
	// The resource: a name from the container's resources, or for DRA
	// "claim:<claim>" or "claim:<claim>/<request>". Unique within the pod.
	Name ResourceName `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Health of each device allocated for the resource, one per resource ID.
	Resources []ResourceHealth `json:"resources,omitempty" protobuf:"bytes,2,rep,name=resources" listType:"map" listMapKey:"resourceID"`
}

// ResourceHealth is the latest known health of one allocated device.
type ResourceHealth struct {
	// Identifies the device on its node.
	ResourceID ResourceID `json:"resourceID" protobuf:"bytes,1,opt,name=resourceID"`
	// Healthy, Unhealthy (possibly temporarily) or Unknown (e.g. its device
	// plugin has gone away).
	Health ResourceHealthStatus `json:"health,omitempty" protobuf:"bytes,2,opt,name=health"`
	// Human-readable detail from the DRA driver, e.g. "ECC error count
	// exceeded threshold"; null when the driver gives none.
	Message *string `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// ResourceHealthStatus is a device's health: Healthy, Unhealthy or Unknown.
type ResourceHealthStatus string

// The device health states.
const (
	ResourceHealthStatusHealthy   ResourceHealthStatus = "Healthy"
	ResourceHealthStatusUnhealthy ResourceHealthStatus = "Unhealthy"
	ResourceHealthStatusUnknown   ResourceHealthStatus = "Unknown"
)

// ResourceID identifies an allocated device: for a device plugin, the
// plugin's device ID (unique on the node); for DRA,
// "<driver>/<pool>/<device>" (unique in the cluster).
type ResourceID string
