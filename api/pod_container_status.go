package api

// ContainerStatus is the kubelet's report on one container.
type ContainerStatus struct {
	// Name of the container, as in the spec.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// What the container is doing now: waiting, running or terminated.
	State ContainerState `json:"state,omitempty" protobuf:"bytes,2,opt,name=state"`
	// How the container's previous run ended, to explain crashes and
	// restarts; empty while it has never restarted.
	LastTerminationState ContainerState `json:"lastState,omitempty" protobuf:"bytes,3,opt,name=lastState"`
	// Whether the container passes its readiness probe right now; without a
	// probe, true once it has started. Decides whether it receives traffic.
	Ready bool `json:"ready" protobuf:"varint,4,opt,name=ready"`
	// How many times the container has been restarted. Never negative, but
	// may drop back to 0 when the node loses its state.
	RestartCount int32 `json:"restartCount" protobuf:"varint,5,opt,name=restartCount"`
	// Image the container runs, as the runtime resolved it; may differ from
	// the spec's.
	Image string `json:"image" protobuf:"bytes,6,opt,name=image"`
	// ID (usually a digest) of the image the container runs, as the runtime
	// resolved it.
	ImageID string `json:"imageID" protobuf:"bytes,7,opt,name=imageID"`
	// ID of the container as "<runtime>://<id>", e.g. "containerd://4f2...".
	ContainerID string `json:"containerID,omitempty" protobuf:"bytes,8,opt,name=containerID"`
	// Whether the container has run its postStart hook and passed its
	// startup probe. False again after a restart; null means false.
	Started *bool `json:"started,omitempty" protobuf:"varint,9,opt,name=started"`
	// Resources the node has allocated to the container: its requests as of
	// admission or the last accepted resize.
	AllocatedResources ResourceList `json:"allocatedResources,omitempty" protobuf:"bytes,10,rep,name=allocatedResources"`
	// Requests and limits actually applied to the running container, after
	// start or the last completed resize.
	Resources *ResourceRequirements `json:"resources,omitempty" protobuf:"bytes,11,opt,name=resources"`
	// State of each of the container's volume mounts, one per mount path.
	VolumeMounts []VolumeMountStatus `json:"volumeMounts,omitempty" protobuf:"bytes,12,rep,name=volumeMounts" patchStrategy:"merge" patchMergeKey:"mountPath" listType:"map" listMapKey:"mountPath"`
	// User and groups the container's first process started with.
	User *ContainerUser `json:"user,omitempty" protobuf:"bytes,13,opt,name=user"`
	// Health of the devices behind each resource allocated to the
	// container, one entry per resource name.
	AllocatedResourcesStatus []ResourceStatus `json:"allocatedResourcesStatus,omitempty" protobuf:"bytes,14,rep,name=allocatedResourcesStatus" patchStrategy:"merge" patchMergeKey:"name" listType:"map" listMapKey:"name"`
	// Signal that stops the container, from its lifecycle or the image.
	StopSignal *Signal `json:"stopSignal,omitempty" protobuf:"bytes,15,opt,name=stopSignal"`
}

// ContainerState is the state of a container: exactly one member is set,
// and a container with none set counts as waiting.
type ContainerState struct {
	// Set while the container is not running yet.
	Waiting *ContainerStateWaiting `json:"waiting,omitempty" protobuf:"bytes,1,opt,name=waiting"`
	// Set while the container runs.
	Running *ContainerStateRunning `json:"running,omitempty" protobuf:"bytes,2,opt,name=running"`
	// Set once the container has exited.
	Terminated *ContainerStateTerminated `json:"terminated,omitempty" protobuf:"bytes,3,opt,name=terminated"`
}

// ContainerStateWaiting is the state of a container that is not running yet
// (pulling its image, in crash back-off...).
type ContainerStateWaiting struct {
	// Short CamelCase word for why it waits, e.g. "ContainerCreating",
	// "ImagePullBackOff" or "CrashLoopBackOff".
	Reason string `json:"reason,omitempty" protobuf:"bytes,1,opt,name=reason"`
	// Human-readable details of why it waits.
	Message string `json:"message,omitempty" protobuf:"bytes,2,opt,name=message"`
}

// ContainerStateRunning is the state of a running container.
type ContainerStateRunning struct {
	// When the container was last started or restarted.
	StartedAt Time `json:"startedAt,omitempty" protobuf:"bytes,1,opt,name=startedAt"`
}

// ContainerStateTerminated is the state of a container that has exited.
type ContainerStateTerminated struct {
	// Exit status of the container's process.
	ExitCode int32 `json:"exitCode" protobuf:"varint,1,opt,name=exitCode"`
	// Number of the signal that ended the process, if one did.
	Signal int32 `json:"signal,omitempty" protobuf:"varint,2,opt,name=signal"`
	// Short CamelCase word for how it ended, e.g. "Completed", "Error" or
	// "OOMKilled".
	Reason string `json:"reason,omitempty" protobuf:"bytes,3,opt,name=reason"`
	// Human-readable details, such as the termination message.
	Message string `json:"message,omitempty" protobuf:"bytes,4,opt,name=message"`
	// When this run of the container started.
	StartedAt Time `json:"startedAt,omitempty" protobuf:"bytes,5,opt,name=startedAt"`
	// When this run of the container ended.
	FinishedAt Time `json:"finishedAt,omitempty" protobuf:"bytes,6,opt,name=finishedAt"`
	// ID of the exited container as "<runtime>://<id>".
	ContainerID string `json:"containerID,omitempty" protobuf:"bytes,7,opt,name=containerID"`
}

// ContainerUser is the identity a container's first process started with,
// per operating system. A privileged process may change it later.
type ContainerUser struct {
	// Identity on Linux.
	Linux *LinuxContainerUser `json:"linux,omitempty" protobuf:"bytes,1,opt,name=linux"`
}

// LinuxContainerUser is the Linux user and groups a container's first process
// started with.
type LinuxContainerUser struct {
	// Primary user ID.
	UID int64 `json:"uid" protobuf:"varint,1,opt,name=uid"`
	// Primary group ID.
	GID int64 `json:"gid" protobuf:"varint,2,opt,name=gid"`
	// Supplementary group IDs.
	SupplementalGroups []int64 `json:"supplementalGroups,omitempty" protobuf:"varint,3,rep,name=supplementalGroups" listType:"atomic"`
}

// VolumeMountStatus is how one of a container's volume mounts was actually
// made.
type VolumeMountStatus struct {
	// Name of the volume, as in the container's volumeMounts.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Mount path, as in the container's volumeMounts.
	MountPath string `json:"mountPath" protobuf:"bytes,2,opt,name=mountPath"`
	// Whether the mount is read-only, as requested.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,3,opt,name=readOnly"`
	// Disabled or Enabled, whichever the mount got (a requested IfPossible
	// is resolved to one of them); unset for a read-write mount.
	RecursiveReadOnly *RecursiveReadOnlyMode `json:"recursiveReadOnly,omitempty" protobuf:"bytes,4,opt,name=recursiveReadOnly"`
	// Status specific to the kind of volume.
	VolumeStatus *VolumeStatus `json:"volumeStatus,omitempty" protobuf:"bytes,5,opt,name=volumeStatus"`
}

// VolumeStatus is status specific to the kind of a mounted volume; at most
// one member is set.
type VolumeStatus struct {
	// For an image volume: the image (or OCI artifact) the node pulled.
	Image *ImageVolumeStatus `json:"image,omitempty" protobuf:"bytes,1,opt,name=image"`
}

// ImageVolumeStatus says which image an image volume was made from.
type ImageVolumeStatus struct {
	// Digest of the image used, like a container status's imageID; at most
	// 256 characters.
	ImageRef string `json:"imageRef,omitempty" protobuf:"bytes,1,opt,name=imageRef"`
}
