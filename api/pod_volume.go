package api

// This file holds a pod's Volume, the VolumeSource union, and the sources the
// node provides itself (hostPath, emptyDir, csi, image). The other sources are
// split by where their data comes from: pod_volume_data.go (API objects),
// pod_volume_projected.go (projected volumes), pod_volume_claim.go
// (PersistentVolumeClaims), pod_volume_network.go and pod_volume_cloud.go
// (the in-tree storage plugins).

// Volume is a named piece of storage declared in a pod spec; containers see it
// through their volumeMounts.
type Volume struct {
	// Name of the volume, as volumeMounts refer to it; a DNS label unique within the pod.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// VolumeSource says where the volume's contents come from. Its members are
	// inlined, so exactly one of them appears next to name; a volume with none
	// is treated as an emptyDir, a fallback that Kubernetes plans to drop.
	VolumeSource `json:"" protobuf:"bytes,2,opt,name=volumeSource"`
}

// VolumeSource is a union: exactly one member must be set, naming the kind of
// storage behind a volume and its parameters.
type VolumeSource struct {
	// A file or directory of the node's own filesystem, for privileged node
	// agents; ordinary workloads should not need it.
	HostPath *HostPathVolumeSource `json:"hostPath,omitempty" protobuf:"bytes,1,opt,name=hostPath"`
	// A scratch directory created empty when the pod starts and deleted with it.
	EmptyDir *EmptyDirVolumeSource `json:"emptyDir,omitempty" protobuf:"bytes,2,opt,name=emptyDir"`
	// A Google Compute Engine persistent disk attached to the node.
	// Deprecated: use the pd.csi.storage.gke.io CSI driver.
	GCEPersistentDisk *GCEPersistentDiskVolumeSource `json:"gcePersistentDisk,omitempty" protobuf:"bytes,3,opt,name=gcePersistentDisk"`
	// An AWS EBS disk attached to the node.
	// Deprecated: use the ebs.csi.aws.com CSI driver.
	AWSElasticBlockStore *AWSElasticBlockStoreVolumeSource `json:"awsElasticBlockStore,omitempty" protobuf:"bytes,4,opt,name=awsElasticBlockStore"`
	// A directory holding a clone of a git repository.
	// Deprecated: use an init container that clones into an emptyDir.
	GitRepo *GitRepoVolumeSource `json:"gitRepo,omitempty" protobuf:"bytes,5,opt,name=gitRepo"`
	// Files made from the keys of a Secret in the pod's namespace.
	Secret *SecretVolumeSource `json:"secret,omitempty" protobuf:"bytes,6,opt,name=secret"`
	// An NFS export mounted for the pod's lifetime.
	NFS *NFSVolumeSource `json:"nfs,omitempty" protobuf:"bytes,7,opt,name=nfs"`
	// An iSCSI disk attached to the node.
	ISCSI *ISCSIVolumeSource `json:"iscsi,omitempty" protobuf:"bytes,8,opt,name=iscsi"`
	// A GlusterFS volume mounted for the pod's lifetime.
	// Deprecated: the in-tree plugin is gone; use a CSI driver.
	Glusterfs *GlusterfsVolumeSource `json:"glusterfs,omitempty" protobuf:"bytes,9,opt,name=glusterfs"`
	// The PersistentVolume bound to a claim in the pod's namespace.
	PersistentVolumeClaim *PersistentVolumeClaimVolumeSource `json:"persistentVolumeClaim,omitempty" protobuf:"bytes,10,opt,name=persistentVolumeClaim"`
	// A Ceph RADOS block device.
	// Deprecated: the in-tree plugin is gone; use a CSI driver.
	RBD *RBDVolumeSource `json:"rbd,omitempty" protobuf:"bytes,11,opt,name=rbd"`
	// Storage set up by an executable driver installed on the node.
	// Deprecated: use a CSI driver.
	FlexVolume *FlexVolumeSource `json:"flexVolume,omitempty" protobuf:"bytes,12,opt,name=flexVolume"`
	// An OpenStack Cinder volume attached to the node.
	// Deprecated: use the cinder.csi.openstack.org CSI driver.
	Cinder *CinderVolumeSource `json:"cinder,omitempty" protobuf:"bytes,13,opt,name=cinder"`
	// A CephFS filesystem mounted for the pod's lifetime.
	// Deprecated: the in-tree plugin is gone; use a CSI driver.
	CephFS *CephFSVolumeSource `json:"cephfs,omitempty" protobuf:"bytes,14,opt,name=cephfs"`
	// A Flocker dataset; needs the Flocker control service.
	// Deprecated: the in-tree plugin is gone; use a CSI driver.
	Flocker *FlockerVolumeSource `json:"flocker,omitempty" protobuf:"bytes,15,opt,name=flocker"`
	// Files holding facts about the pod itself (labels, annotations, resources).
	DownwardAPI *DownwardAPIVolumeSource `json:"downwardAPI,omitempty" protobuf:"bytes,16,opt,name=downwardAPI"`
	// A Fibre Channel disk attached to the node.
	FC *FCVolumeSource `json:"fc,omitempty" protobuf:"bytes,17,opt,name=fc"`
	// An Azure Files share mounted on the node.
	// Deprecated: use the file.csi.azure.com CSI driver.
	AzureFile *AzureFileVolumeSource `json:"azureFile,omitempty" protobuf:"bytes,18,opt,name=azureFile"`
	// Files made from the keys of a ConfigMap in the pod's namespace.
	ConfigMap *ConfigMapVolumeSource `json:"configMap,omitempty" protobuf:"bytes,19,opt,name=configMap"`
	// A vSphere virtual disk attached to the node.
	// Deprecated: use the csi.vsphere.vmware.com CSI driver.
	VsphereVolume *VsphereVirtualDiskVolumeSource `json:"vsphereVolume,omitempty" protobuf:"bytes,20,opt,name=vsphereVolume"`
	// A Quobyte volume mounted for the pod's lifetime.
	// Deprecated: the in-tree plugin is gone; use a CSI driver.
	Quobyte *QuobyteVolumeSource `json:"quobyte,omitempty" protobuf:"bytes,21,opt,name=quobyte"`
	// An Azure data disk attached to the node.
	// Deprecated: use the disk.csi.azure.com CSI driver.
	AzureDisk *AzureDiskVolumeSource `json:"azureDisk,omitempty" protobuf:"bytes,22,opt,name=azureDisk"`
	// A Photon Controller persistent disk attached to the node.
	// Deprecated: the in-tree plugin is gone; use a CSI driver.
	PhotonPersistentDisk *PhotonPersistentDiskVolumeSource `json:"photonPersistentDisk,omitempty" protobuf:"bytes,23,opt,name=photonPersistentDisk"`
	// One directory combining secrets, config maps, downward API files,
	// service account tokens, trust bundles and pod certificates.
	Projected *ProjectedVolumeSource `json:"projected,omitempty" protobuf:"bytes,26,opt,name=projected"`
	// A Portworx volume attached to the node.
	// Deprecated: use the pxd.portworx.com CSI driver.
	PortworxVolume *PortworxVolumeSource `json:"portworxVolume,omitempty" protobuf:"bytes,24,opt,name=portworxVolume"`
	// A Dell ScaleIO (PowerFlex) volume.
	// Deprecated: the in-tree plugin is gone; use a CSI driver.
	ScaleIO *ScaleIOVolumeSource `json:"scaleIO,omitempty" protobuf:"bytes,25,opt,name=scaleIO"`
	// A StorageOS volume.
	// Deprecated: the in-tree plugin is gone; use a CSI driver.
	StorageOS *StorageOSVolumeSource `json:"storageos,omitempty" protobuf:"bytes,27,opt,name=storageos"`
	// An inline, pod-lifetime volume provided by a CSI driver that supports
	// ephemeral use; no PersistentVolume is involved.
	CSI *CSIVolumeSource `json:"csi,omitempty" protobuf:"bytes,28,opt,name=csi"`
	// A volume provisioned through a PersistentVolumeClaim that is created for
	// this pod from a template and deleted with it. Use it when a storage class
	// driver should supply pod-lifetime storage; use persistentVolumeClaim for
	// data that outlives the pod.
	Ephemeral *EphemeralVolumeSource `json:"ephemeral,omitempty" protobuf:"bytes,29,opt,name=ephemeral"`
	// The contents of an OCI image or artifact, pulled by the kubelet and
	// mounted read-only. Containers do not start until it is available.
	Image *ImageVolumeSource `json:"image,omitempty" protobuf:"bytes,30,opt,name=image"`
}

// HostPathVolumeSource exposes a path of the node's filesystem to the pod.
// The kubelet neither changes its ownership nor relabels it for SELinux.
type HostPathVolumeSource struct {
	// Absolute path on the node; a symlink is resolved to its target.
	Path string `json:"path" protobuf:"bytes,1,opt,name=path"`
	// What must exist at path, and whether the kubelet may create it; the
	// default "" checks nothing.
	Type *HostPathType `json:"type,omitempty" protobuf:"bytes,2,opt,name=type"`
}

// HostPathType says what a hostPath volume expects at its path: ""
// (no check), DirectoryOrCreate, Directory, FileOrCreate, File, Socket,
// CharDevice or BlockDevice.
type HostPathType string

// The hostPath types. The ...OrCreate ones create a missing directory (mode
// 0755) or empty file (mode 0644) owned like the kubelet; the others fail the
// mount when the path is missing or of another kind.
const (
	HostPathUnset             HostPathType = ""
	HostPathDirectoryOrCreate HostPathType = "DirectoryOrCreate"
	HostPathDirectory         HostPathType = "Directory"
	HostPathFileOrCreate      HostPathType = "FileOrCreate"
	HostPathFile              HostPathType = "File"
	HostPathSocket            HostPathType = "Socket"
	HostPathCharDev           HostPathType = "CharDevice"
	HostPathBlockDev          HostPathType = "BlockDevice"
)

// EmptyDirVolumeSource is a directory that starts empty when the pod is
// placed on a node and is removed when the pod leaves it.
type EmptyDirVolumeSource struct {
	// Backing storage: "" (the node's default, usually disk), "Memory" (a tmpfs)
	// or a HugePages medium.
	Medium StorageMedium `json:"medium,omitempty" protobuf:"bytes,1,opt,name=medium"`
	// Upper bound on the space the directory may use, memory included for the
	// Memory medium (there the pod's memory limit may bound it sooner); unset
	// means no limit of its own.
	SizeLimit *Quantity `json:"sizeLimit,omitempty" protobuf:"bytes,2,opt,name=sizeLimit"`
	// Permission bits of the directory, 0 to 01777 (e.g. 0755); default 0777.
	// An fsGroup overrides it; Windows ignores it. Alpha (EmptyDirVolumeMode gate).
	Mode *int32 `json:"mode,omitempty" protobuf:"varint,3,opt,name=mode"`
}

// StorageMedium is what backs an emptyDir: "" (node default), "Memory"
// (tmpfs), "HugePages", or "HugePages-<size>" such as "HugePages-2Mi".
type StorageMedium string

// The storage media; StorageMediumHugePagesPrefix is followed by a page size.
const (
	StorageMediumDefault         StorageMedium = ""
	StorageMediumMemory          StorageMedium = "Memory"
	StorageMediumHugePages       StorageMedium = "HugePages"
	StorageMediumHugePagesPrefix StorageMedium = "HugePages-"
)

// CSIVolumeSource is an inline volume served by an external Container Storage
// Interface driver for the pod's lifetime.
type CSIVolumeSource struct {
	// Name of the CSI driver, as registered in the cluster.
	Driver string `json:"driver" protobuf:"bytes,1,opt,name=driver"`
	// Requests a read-only volume from the driver; default false.
	ReadOnly *bool `json:"readOnly,omitempty" protobuf:"varint,2,opt,name=readOnly"`
	// Filesystem to mount, e.g. "ext4"; when unset the driver picks one.
	FSType *string `json:"fsType,omitempty" protobuf:"bytes,3,opt,name=fsType"`
	// Driver-specific parameters passed through unchanged; the driver documents them.
	VolumeAttributes map[string]string `json:"volumeAttributes,omitempty" protobuf:"bytes,4,rep,name=volumeAttributes"`
	// Secret in the pod's namespace whose entries are handed to the driver when
	// it publishes and unpublishes the volume; unset if none is needed.
	NodePublishSecretRef *LocalObjectReference `json:"nodePublishSecretRef,omitempty" protobuf:"bytes,5,opt,name=nodePublishSecretRef" structType:"atomic"`
}

// ImageVolumeSource mounts an OCI image or artifact, read-only, at each mount
// path. It is resolved when the pod starts and again only if the pod is
// recreated; a failed pull keeps the containers waiting with normal backoff.
type ImageVolumeSource struct {
	// Image or artifact reference, as in a container's image field, pulled with
	// the same credentials; may be left empty for a workload controller to fill.
	Reference string `json:"reference,omitempty" protobuf:"bytes,1,opt,name=reference"`
	// When to pull: Always, Never (use only a local copy) or IfNotPresent; the
	// default is Always for a :latest tag and IfNotPresent otherwise.
	PullPolicy PullPolicy `json:"pullPolicy,omitempty" protobuf:"bytes,2,opt,name=pullPolicy"`
}
