package api

// This file holds the in-tree volume sources for cloud and vendor block
// storage. Kubernetes has moved all of them out of tree: each is either
// redirected to a CSI driver or no longer supported. kubeloop only carries
// their fields.

// GCEPersistentDiskVolumeSource attaches a Google Compute Engine persistent
// disk, which must already exist in the node's project and zone. It can be
// mounted read-write by one node or read-only by many; the kubelet sets
// ownership and SELinux labels.
type GCEPersistentDiskVolumeSource struct {
	// Name of the disk in GCE.
	PDName string `json:"pdName" protobuf:"bytes,1,opt,name=pdName"`
	// Filesystem to mount, one the node supports (e.g. "ext4", "xfs", "ntfs");
	// default "ext4".
	FSType string `json:"fsType,omitempty" protobuf:"bytes,2,opt,name=fsType"`
	// Partition to mount, e.g. 1 for /dev/sda1; 0 or unset mounts the whole disk.
	Partition int32 `json:"partition,omitempty" protobuf:"varint,3,opt,name=partition"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,4,opt,name=readOnly"`
}

// AWSElasticBlockStoreVolumeSource attaches an Amazon EBS volume, which must
// already exist in the node's zone. It can be mounted read-write by one node
// only; the kubelet sets ownership and SELinux labels.
type AWSElasticBlockStoreVolumeSource struct {
	// ID of the EBS volume.
	VolumeID string `json:"volumeID" protobuf:"bytes,1,opt,name=volumeID"`
	// Filesystem to mount, one the node supports (e.g. "ext4", "xfs", "ntfs");
	// default "ext4".
	FSType string `json:"fsType,omitempty" protobuf:"bytes,2,opt,name=fsType"`
	// Partition to mount, e.g. 1 for /dev/sda1; 0 or unset mounts the whole disk.
	Partition int32 `json:"partition,omitempty" protobuf:"varint,3,opt,name=partition"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,4,opt,name=readOnly"`
}

// CinderVolumeSource attaches an OpenStack Cinder volume, which must already
// exist in the node's region. The kubelet sets ownership and SELinux labels.
type CinderVolumeSource struct {
	// ID of the Cinder volume.
	VolumeID string `json:"volumeID" protobuf:"bytes,1,opt,name=volumeID"`
	// Filesystem to mount, one the node supports (e.g. "ext4", "xfs", "ntfs");
	// default "ext4".
	FSType string `json:"fsType,omitempty" protobuf:"bytes,2,opt,name=fsType"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,3,opt,name=readOnly"`
	// Secret with the parameters for connecting to OpenStack.
	SecretRef *LocalObjectReference `json:"secretRef,omitempty" protobuf:"bytes,4,opt,name=secretRef" structType:"atomic"`
}

// AzureFileVolumeSource mounts an Azure Files share on the node and
// bind-mounts it into the pod.
type AzureFileVolumeSource struct {
	// Secret holding the storage account name and key.
	SecretName string `json:"secretName" protobuf:"bytes,1,opt,name=secretName"`
	// Name of the file share.
	ShareName string `json:"shareName" protobuf:"bytes,2,opt,name=shareName"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,3,opt,name=readOnly"`
}

// AzureDiskVolumeSource attaches an Azure data disk to the node and
// bind-mounts it into the pod.
type AzureDiskVolumeSource struct {
	// Name of the data disk.
	DiskName string `json:"diskName" protobuf:"bytes,1,opt,name=diskName"`
	// URI of the data disk in blob storage.
	DataDiskURI string `json:"diskURI" protobuf:"bytes,2,opt,name=diskURI"`
	// Host caching: None, ReadOnly or ReadWrite (the default).
	CachingMode *AzureDataDiskCachingMode `json:"cachingMode,omitempty" protobuf:"bytes,3,opt,name=cachingMode"`
	// Filesystem to mount, one the node supports (e.g. "ext4", "xfs", "ntfs");
	// default "ext4".
	FSType *string `json:"fsType,omitempty" protobuf:"bytes,4,opt,name=fsType"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly *bool `json:"readOnly,omitempty" protobuf:"varint,5,opt,name=readOnly"`
	// How the disk is stored: Shared (the default), Dedicated or Managed.
	Kind *AzureDataDiskKind `json:"kind,omitempty" protobuf:"bytes,6,opt,name=kind"`
}

// AzureDataDiskCachingMode is the host caching of an Azure data disk: None,
// ReadOnly or ReadWrite.
type AzureDataDiskCachingMode string

// The Azure data disk caching modes.
const (
	AzureDataDiskCachingNone      AzureDataDiskCachingMode = "None"
	AzureDataDiskCachingReadOnly  AzureDataDiskCachingMode = "ReadOnly"
	AzureDataDiskCachingReadWrite AzureDataDiskCachingMode = "ReadWrite"
)

// AzureDataDiskKind is how an Azure data disk is stored: Shared (blob disks
// share a storage account), Dedicated (each blob disk has its own account) or
// Managed (an Azure managed disk; managed availability sets only).
type AzureDataDiskKind string

// The Azure data disk kinds.
const (
	AzureSharedBlobDisk    AzureDataDiskKind = "Shared"
	AzureDedicatedBlobDisk AzureDataDiskKind = "Dedicated"
	AzureManagedDisk       AzureDataDiskKind = "Managed"
)

// VsphereVirtualDiskVolumeSource attaches a vSphere virtual disk (VMDK) to the node.
type VsphereVirtualDiskVolumeSource struct {
	// Path identifying the VMDK.
	VolumePath string `json:"volumePath" protobuf:"bytes,1,opt,name=volumePath"`
	// Filesystem to mount, one the node supports (e.g. "ext4", "xfs", "ntfs");
	// default "ext4".
	FSType string `json:"fsType,omitempty" protobuf:"bytes,2,opt,name=fsType"`
	// Storage policy to apply: an SPBM profile name.
	StoragePolicyName string `json:"storagePolicyName,omitempty" protobuf:"bytes,3,opt,name=storagePolicyName"`
	// ID of that SPBM profile.
	StoragePolicyID string `json:"storagePolicyID,omitempty" protobuf:"bytes,4,opt,name=storagePolicyID"`
}

// PhotonPersistentDiskVolumeSource attaches a VMware Photon Controller
// persistent disk to the node.
type PhotonPersistentDiskVolumeSource struct {
	// ID of the Photon Controller disk.
	PdID string `json:"pdID" protobuf:"bytes,1,opt,name=pdID"`
	// Filesystem to mount, one the node supports (e.g. "ext4", "xfs", "ntfs");
	// default "ext4".
	FSType string `json:"fsType,omitempty" protobuf:"bytes,2,opt,name=fsType"`
}

// PortworxVolumeSource attaches a Portworx volume to the node.
type PortworxVolumeSource struct {
	// ID of the Portworx volume.
	VolumeID string `json:"volumeID" protobuf:"bytes,1,opt,name=volumeID"`
	// Filesystem to mount, one the node supports (e.g. "ext4", "xfs");
	// default "ext4".
	FSType string `json:"fsType,omitempty" protobuf:"bytes,2,opt,name=fsType"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,3,opt,name=readOnly"`
}

// ScaleIOVolumeSource attaches an existing Dell ScaleIO (PowerFlex) volume.
type ScaleIOVolumeSource struct {
	// ScaleIO API gateway to talk to, as a host address.
	Gateway string `json:"gateway" protobuf:"bytes,1,opt,name=gateway"`
	// Storage system name, as ScaleIO knows it.
	System string `json:"system" protobuf:"bytes,2,opt,name=system"`
	// Secret with the ScaleIO user's credentials; required, login fails without it.
	SecretRef *LocalObjectReference `json:"secretRef" protobuf:"bytes,3,opt,name=secretRef" structType:"atomic"`
	// Whether to talk to the gateway over SSL; default false.
	SSLEnabled bool `json:"sslEnabled,omitempty" protobuf:"varint,4,opt,name=sslEnabled"`
	// ScaleIO protection domain of the storage.
	ProtectionDomain string `json:"protectionDomain,omitempty" protobuf:"bytes,5,opt,name=protectionDomain"`
	// ScaleIO storage pool within the protection domain.
	StoragePool string `json:"storagePool,omitempty" protobuf:"bytes,6,opt,name=storagePool"`
	// ThinProvisioned (the default) or ThickProvisioned.
	StorageMode string `json:"storageMode,omitempty" protobuf:"bytes,7,opt,name=storageMode"`
	// Existing ScaleIO volume to use, by name.
	VolumeName string `json:"volumeName,omitempty" protobuf:"bytes,8,opt,name=volumeName"`
	// Filesystem to mount, one the node supports (e.g. "ext4", "xfs", "ntfs");
	// default "xfs".
	FSType string `json:"fsType,omitempty" protobuf:"bytes,9,opt,name=fsType"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,10,opt,name=readOnly"`
}

// StorageOSVolumeSource attaches a StorageOS volume.
type StorageOSVolumeSource struct {
	// Name of the StorageOS volume, unique within its StorageOS namespace.
	VolumeName string `json:"volumeName,omitempty" protobuf:"bytes,1,opt,name=volumeName"`
	// StorageOS namespace of the volume; default the pod's namespace, "default"
	// when StorageOS namespaces are not used. A missing one is created.
	VolumeNamespace string `json:"volumeNamespace,omitempty" protobuf:"bytes,2,opt,name=volumeNamespace"`
	// Filesystem to mount, one the node supports (e.g. "ext4", "xfs", "ntfs");
	// default "ext4".
	FSType string `json:"fsType,omitempty" protobuf:"bytes,3,opt,name=fsType"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,4,opt,name=readOnly"`
	// Secret with the StorageOS API credentials; unset tries the defaults.
	SecretRef *LocalObjectReference `json:"secretRef,omitempty" protobuf:"bytes,5,opt,name=secretRef" structType:"atomic"`
}
