package api

// This file holds how a container sees the pod's volumes; the volumes
// themselves are in pod_volume.go.

// VolumeMount mounts one of the pod's volumes at a path in a container.
type VolumeMount struct {
	// Name of the pod volume to mount.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Mount read-only instead of read-write. Default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,2,opt,name=readOnly"`
	// For a read-only mount, whether mounts beneath it are made read-only
	// too: Disabled (the default), IfPossible, or Enabled (the pod fails to
	// start if the runtime cannot). Must be unset when readOnly is false;
	// IfPossible and Enabled need mountPropagation None.
	RecursiveReadOnly *RecursiveReadOnlyMode `json:"recursiveReadOnly,omitempty" protobuf:"bytes,7,opt,name=recursiveReadOnly"`
	// Path in the container where the volume appears; unique
	// within the container.
	MountPath string `json:"mountPath" protobuf:"bytes,3,opt,name=mountPath"`
	// Directory inside the volume to mount instead of its root. Not
	// allowed together with subPathExpr.
	SubPath string `json:"subPath,omitempty" protobuf:"bytes,4,opt,name=subPath"`
	// How mounts propagate between the node and the container: None (the
	// default), HostToContainer or Bidirectional.
	MountPropagation *MountPropagationMode `json:"mountPropagation,omitempty" protobuf:"bytes,5,opt,name=mountPropagation"`
	// Like subPath, but $(VAR) references to the container's environment
	// are expanded first. Not allowed together with subPath.
	SubPathExpr string `json:"subPathExpr,omitempty" protobuf:"bytes,6,opt,name=subPathExpr"`
	// Extra Linux bind mount options: noexec, nodev and/or nosuid. Ignored
	// on Windows and not allowed for image volumes (behind a feature gate).
	BindMountOptions []string `json:"bindMountOptions,omitempty" protobuf:"bytes,8,rep,name=bindMountOptions" listType:"set"`
}

// VolumeDevice exposes a block-mode volume to a container as a raw device.
type VolumeDevice struct {
	// Name of the pod volume (a persistentVolumeClaim) to expose.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Path of the device node in the container, e.g. "/dev/xvda".
	DevicePath string `json:"devicePath" protobuf:"bytes,2,opt,name=devicePath"`
}

// MountPropagationMode says how mounts made under a volume propagate: None
// (neither way; Linux "private"), HostToContainer (the container sees new
// mounts from the node; "rslave") or Bidirectional (both ways; "rshared",
// only for privileged containers).
type MountPropagationMode string

// The mount propagation modes.
const (
	MountPropagationNone            MountPropagationMode = "None"
	MountPropagationHostToContainer MountPropagationMode = "HostToContainer"
	MountPropagationBidirectional   MountPropagationMode = "Bidirectional"
)

// RecursiveReadOnlyMode says whether a read-only mount is read-only all the
// way down: Disabled, IfPossible (when the runtime supports it) or Enabled
// (required; the pod fails otherwise).
type RecursiveReadOnlyMode string

// The recursive read-only modes.
const (
	RecursiveReadOnlyDisabled   RecursiveReadOnlyMode = "Disabled"
	RecursiveReadOnlyIfPossible RecursiveReadOnlyMode = "IfPossible"
	RecursiveReadOnlyEnabled    RecursiveReadOnlyMode = "Enabled"
)
