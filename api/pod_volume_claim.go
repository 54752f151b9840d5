package api

// This file holds the volume sources backed by a PersistentVolumeClaim, either
// an existing one or one created for the pod, and the claim spec they share.

// PersistentVolumeClaimVolumeSource mounts the PersistentVolume bound to an
// existing claim in the pod's namespace; the claim, not the pod, says what
// storage that is.
type PersistentVolumeClaimVolumeSource struct {
	// Name of the PersistentVolumeClaim, in the pod's namespace.
	ClaimName string `json:"claimName" protobuf:"bytes,1,opt,name=claimName"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,2,opt,name=readOnly"`
}

// EphemeralVolumeSource gives the pod its own PersistentVolumeClaim, made from
// a template when the pod is created and deleted with it, so any dynamic
// provisioner can supply pod-lifetime storage.
type EphemeralVolumeSource struct {
	// Template of the claim; required. The claim is named <pod name>-<volume
	// name> and owned by the pod; a same-named claim the pod does not own
	// blocks the pod instead of being used. Kubernetes never updates the claim
	// after creating it.
	VolumeClaimTemplate *PersistentVolumeClaimTemplate `json:"volumeClaimTemplate,omitempty" protobuf:"bytes,1,opt,name=volumeClaimTemplate"`
}

// PersistentVolumeClaimTemplate is the blueprint of the claim that an
// ephemeral volume creates.
type PersistentVolumeClaimTemplate struct {
	// Labels and annotations to copy onto the claim; other metadata is rejected.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Spec of the claim, copied into it unchanged; the same rules apply as to
	// a PersistentVolumeClaim's spec.
	Spec PersistentVolumeClaimSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
}

// PersistentVolumeClaimSpec is what a claim asks of the volume it binds to:
// size, access modes, class and an optional data source.
type PersistentVolumeClaimSpec struct {
	// Ways the volume must be mountable: ReadWriteOnce, ReadOnlyMany,
	// ReadWriteMany or ReadWriteOncePod.
	AccessModes []PersistentVolumeAccessMode `json:"accessModes,omitempty" protobuf:"bytes,1,rep,name=accessModes" listType:"atomic"`
	// Only PersistentVolumes whose labels match may bind to the claim.
	Selector *LabelSelector `json:"selector,omitempty" protobuf:"bytes,4,opt,name=selector" structType:"atomic"`
	// Storage the volume must at least provide (requests.storage). It may be
	// raised later, or lowered but not below the capacity in the claim's status.
	Resources VolumeResourceRequirements `json:"resources,omitempty" protobuf:"bytes,2,opt,name=resources"`
	// Name of the PersistentVolume bound to the claim; set by the binder, or by
	// the user to ask for a particular volume.
	VolumeName string `json:"volumeName,omitempty" protobuf:"bytes,3,opt,name=volumeName"`
	// StorageClass the volume must belong to; "" asks for a volume without a
	// class, unset leaves the choice to the default class.
	StorageClassName *string `json:"storageClassName,omitempty" protobuf:"bytes,5,opt,name=storageClassName"`
	// Whether the volume is consumed as a filesystem (Filesystem, the default)
	// or as a raw device (Block).
	VolumeMode *PersistentVolumeMode `json:"volumeMode,omitempty" protobuf:"bytes,6,opt,name=volumeMode"`
	// Existing object to fill the new volume from: a VolumeSnapshot or another
	// claim in the same namespace. Other kinds are dropped. Kept equal to
	// dataSourceRef when that has no namespace.
	DataSource *TypedLocalObjectReference `json:"dataSource,omitempty" protobuf:"bytes,7,opt,name=dataSource" structType:"atomic"`
	// Object to fill the new volume from: a claim, or any object of a non-core
	// group that an installed volume populator handles; a disallowed value is an
	// error rather than dropped. The successor of dataSource; both must agree
	// when both are set. Its namespace may be another one only with the
	// CrossNamespaceVolumeDataSource gate, and then dataSource stays empty.
	DataSourceRef *TypedObjectReference `json:"dataSourceRef,omitempty" protobuf:"bytes,8,opt,name=dataSourceRef"`
	// VolumeAttributesClass whose parameters the CSI driver applies to the
	// volume; unlike the storage class it can be changed later, and unset or ""
	// applies none. The claim stays Pending while the class does not exist.
	VolumeAttributesClassName *string `json:"volumeAttributesClassName,omitempty" protobuf:"bytes,9,opt,name=volumeAttributesClassName"`
}

// VolumeResourceRequirements is the amount of storage a claim asks for.
type VolumeResourceRequirements struct {
	// Most the claim may get, by resource name (usually "storage").
	Limits ResourceList `json:"limits,omitempty" protobuf:"bytes,1,rep,name=limits"`
	// Least the claim needs, by resource name (usually "storage"); defaults to
	// limits when only those are given and may not exceed them.
	Requests ResourceList `json:"requests,omitempty" protobuf:"bytes,2,rep,name=requests"`
}

// TypedLocalObjectReference names an object of a given kind in the referrer's
// own namespace. Kubernetes discourages it for new APIs.
type TypedLocalObjectReference struct {
	// API group of the kind, e.g. snapshot.storage.k8s.io; unset or "" means
	// the core group, and any other kind needs it.
	APIGroup *string `json:"apiGroup" protobuf:"bytes,1,opt,name=apiGroup"`
	// Kind of the object, e.g. VolumeSnapshot.
	Kind string `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	// Name of the object.
	Name string `json:"name" protobuf:"bytes,3,opt,name=name"`
}

// TypedObjectReference names an object of a given kind, optionally in another
// namespace.
type TypedObjectReference struct {
	// API group of the kind; unset or "" means the core group, and any other
	// kind needs it.
	APIGroup *string `json:"apiGroup" protobuf:"bytes,1,opt,name=apiGroup"`
	// Kind of the object.
	Kind string `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	// Name of the object.
	Name string `json:"name" protobuf:"bytes,3,opt,name=name"`
	// Namespace of the object; unset means the referrer's. Another namespace
	// must grant access with a gateway.networking.k8s.io ReferenceGrant.
	// Alpha (CrossNamespaceVolumeDataSource gate).
	Namespace *string `json:"namespace,omitempty" protobuf:"bytes,4,opt,name=namespace"`
}

// PersistentVolumeAccessMode is one way a volume can be mounted:
// ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod.
type PersistentVolumeAccessMode string

// The access modes. "Once" and "Many" count nodes, except ReadWriteOncePod,
// which allows a single pod and cannot be combined with another mode.
const (
	ReadWriteOnce    PersistentVolumeAccessMode = "ReadWriteOnce"
	ReadOnlyMany     PersistentVolumeAccessMode = "ReadOnlyMany"
	ReadWriteMany    PersistentVolumeAccessMode = "ReadWriteMany"
	ReadWriteOncePod PersistentVolumeAccessMode = "ReadWriteOncePod"
)

// PersistentVolumeMode is how a volume is presented to a pod: Filesystem
// (formatted and mounted) or Block (a raw device, never formatted).
type PersistentVolumeMode string

// The volume modes.
const (
	PersistentVolumeBlock      PersistentVolumeMode = "Block"
	PersistentVolumeFilesystem PersistentVolumeMode = "Filesystem"
)
