package api

// This file holds the in-tree volume sources for network filesystems, block
// devices reached over a storage network, and node-side plugins. Most are
// deprecated in favour of CSI drivers; kubeloop only carries their fields.

// NFSVolumeSource mounts an NFS export for the pod's lifetime. The kubelet
// neither changes its ownership nor relabels it for SELinux.
type NFSVolumeSource struct {
	// NFS server, by hostname or IP.
	Server string `json:"server" protobuf:"bytes,1,opt,name=server"`
	// Path exported by the server.
	Path string `json:"path" protobuf:"bytes,2,opt,name=path"`
	// When true the export is mounted read-only; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,3,opt,name=readOnly"`
}

// ISCSIVolumeSource attaches an iSCSI disk to the node; it can be mounted
// read-write by one node only. The kubelet sets ownership and SELinux labels.
type ISCSIVolumeSource struct {
	// Target portal, an IP or ip:port (the port when it is not the usual
	// 860 or 3260).
	TargetPortal string `json:"targetPortal" protobuf:"bytes,1,opt,name=targetPortal"`
	// iSCSI Qualified Name of the target.
	IQN string `json:"iqn" protobuf:"bytes,2,opt,name=iqn"`
	// Logical unit number on the target.
	Lun int32 `json:"lun" protobuf:"varint,3,opt,name=lun"`
	// iSCSI interface that carries the traffic; default "default" (TCP).
	ISCSIInterface string `json:"iscsiInterface,omitempty" protobuf:"bytes,4,opt,name=iscsiInterface"`
	// Filesystem to mount, one the node supports (e.g. "ext4", "xfs", "ntfs");
	// default "ext4".
	FSType string `json:"fsType,omitempty" protobuf:"bytes,5,opt,name=fsType"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,6,opt,name=readOnly"`
	// More target portals to try, each an IP or ip:port like targetPortal.
	Portals []string `json:"portals,omitempty" protobuf:"bytes,7,rep,name=portals" listType:"atomic"`
	// Whether discovery uses CHAP authentication.
	DiscoveryCHAPAuth bool `json:"chapAuthDiscovery,omitempty" protobuf:"varint,8,opt,name=chapAuthDiscovery"`
	// Whether sessions use CHAP authentication.
	SessionCHAPAuth bool `json:"chapAuthSession,omitempty" protobuf:"varint,11,opt,name=chapAuthSession"`
	// Secret holding the CHAP credentials for target and initiator.
	SecretRef *LocalObjectReference `json:"secretRef,omitempty" protobuf:"bytes,10,opt,name=secretRef" structType:"atomic"`
	// Custom initiator name; together with iscsiInterface it makes the kubelet
	// create a new interface named <target portal>:<volume name>.
	InitiatorName *string `json:"initiatorName,omitempty" protobuf:"bytes,12,opt,name=initiatorName"`
}

// FCVolumeSource attaches a Fibre Channel disk to the node; it can be mounted
// read-write by one node only. The kubelet sets ownership and SELinux labels.
type FCVolumeSource struct {
	// World wide names of the target ports; used with lun, instead of wwids.
	TargetWWNs []string `json:"targetWWNs,omitempty" protobuf:"bytes,1,rep,name=targetWWNs" listType:"atomic"`
	// Logical unit number on the targets; used with targetWWNs.
	Lun *int32 `json:"lun,omitempty" protobuf:"varint,2,opt,name=lun"`
	// Filesystem to mount, one the node supports (e.g. "ext4", "xfs", "ntfs");
	// default "ext4".
	FSType string `json:"fsType,omitempty" protobuf:"bytes,3,opt,name=fsType"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,4,opt,name=readOnly"`
	// World wide identifiers of the volume; set either these or targetWWNs
	// with lun, never both.
	WWIDs []string `json:"wwids,omitempty" protobuf:"bytes,5,rep,name=wwids" listType:"atomic"`
}

// GlusterfsVolumeSource mounts a GlusterFS volume for the pod's lifetime.
type GlusterfsVolumeSource struct {
	// Name of the Endpoints object listing the Gluster servers.
	EndpointsName string `json:"endpoints" protobuf:"bytes,1,opt,name=endpoints"`
	// Name of the Gluster volume to mount.
	Path string `json:"path" protobuf:"bytes,2,opt,name=path"`
	// When true the volume is mounted read-only; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,3,opt,name=readOnly"`
}

// RBDVolumeSource maps a Ceph RADOS block device for the pod's lifetime.
type RBDVolumeSource struct {
	// Addresses of the Ceph monitors.
	CephMonitors []string `json:"monitors" protobuf:"bytes,1,rep,name=monitors" listType:"atomic"`
	// Name of the RADOS image.
	RBDImage string `json:"image" protobuf:"bytes,2,opt,name=image"`
	// Filesystem to mount, one the node supports (e.g. "ext4", "xfs", "ntfs");
	// default "ext4".
	FSType string `json:"fsType,omitempty" protobuf:"bytes,3,opt,name=fsType"`
	// RADOS pool holding the image; default "rbd".
	RBDPool string `json:"pool,omitempty" protobuf:"bytes,4,opt,name=pool"`
	// RADOS user to connect as; default "admin".
	RadosUser string `json:"user,omitempty" protobuf:"bytes,5,opt,name=user"`
	// Path of the user's keyring on the node; default /etc/ceph/keyring.
	Keyring string `json:"keyring,omitempty" protobuf:"bytes,6,opt,name=keyring"`
	// Secret with the user's key; when set it is used instead of keyring.
	SecretRef *LocalObjectReference `json:"secretRef,omitempty" protobuf:"bytes,7,opt,name=secretRef" structType:"atomic"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,8,opt,name=readOnly"`
}

// CephFSVolumeSource mounts a CephFS filesystem for the pod's lifetime.
type CephFSVolumeSource struct {
	// Addresses of the Ceph monitors; required.
	Monitors []string `json:"monitors" protobuf:"bytes,1,rep,name=monitors" listType:"atomic"`
	// Directory of the filesystem to mount as the volume root; default "/".
	Path string `json:"path,omitempty" protobuf:"bytes,2,opt,name=path"`
	// RADOS user to connect as; default "admin".
	User string `json:"user,omitempty" protobuf:"bytes,3,opt,name=user"`
	// Path of the user's key on the node; default /etc/ceph/user.secret.
	SecretFile string `json:"secretFile,omitempty" protobuf:"bytes,4,opt,name=secretFile"`
	// Secret with the user's key, used instead of secretFile.
	SecretRef *LocalObjectReference `json:"secretRef,omitempty" protobuf:"bytes,5,opt,name=secretRef" structType:"atomic"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,6,opt,name=readOnly"`
}

// QuobyteVolumeSource mounts a Quobyte volume for the pod's lifetime.
type QuobyteVolumeSource struct {
	// Quobyte registry services as host:port, several separated by commas.
	Registry string `json:"registry" protobuf:"bytes,1,opt,name=registry"`
	// Name of an existing Quobyte volume.
	Volume string `json:"volume" protobuf:"bytes,2,opt,name=volume"`
	// When true the volume is mounted read-only; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,3,opt,name=readOnly"`
	// User that volume access maps to; default the service account user.
	User string `json:"user,omitempty" protobuf:"bytes,4,opt,name=user"`
	// Group that volume access maps to; default none.
	Group string `json:"group,omitempty" protobuf:"bytes,5,opt,name=group"`
	// Tenant owning the volume; set by the plugin for provisioned volumes.
	Tenant string `json:"tenant,omitempty" protobuf:"bytes,6,opt,name=tenant"`
}

// FlockerVolumeSource mounts a Flocker dataset; set exactly one of its fields.
type FlockerVolumeSource struct {
	// Dataset name, as stored in its metadata. Deprecated: use datasetUUID.
	DatasetName string `json:"datasetName,omitempty" protobuf:"bytes,1,opt,name=datasetName"`
	// UUID of the dataset.
	DatasetUUID string `json:"datasetUUID,omitempty" protobuf:"bytes,2,opt,name=datasetUUID"`
}

// FlexVolumeSource is a volume that an executable driver installed on the
// node attaches and mounts.
type FlexVolumeSource struct {
	// Name of the driver, as installed on the node.
	Driver string `json:"driver" protobuf:"bytes,1,opt,name=driver"`
	// Filesystem to mount, one the node supports (e.g. "ext4"); the default is
	// the driver's.
	FSType string `json:"fsType,omitempty" protobuf:"bytes,2,opt,name=fsType"`
	// Secret whose entries are all passed to the driver; unset if it needs none.
	SecretRef *LocalObjectReference `json:"secretRef,omitempty" protobuf:"bytes,3,opt,name=secretRef" structType:"atomic"`
	// When true, every mount of this volume is read-only whatever volumeMounts
	// say; default false.
	ReadOnly bool `json:"readOnly,omitempty" protobuf:"varint,4,opt,name=readOnly"`
	// Extra options handed to the driver.
	Options map[string]string `json:"options,omitempty" protobuf:"bytes,5,rep,name=options"`
}

// GitRepoVolumeSource is a directory holding a clone of a git repository. The
// kubelet relabels it for SELinux but does not change its ownership.
// Deprecated: clone the repository into an emptyDir from an init container.
type GitRepoVolumeSource struct {
	// URL of the repository.
	Repository string `json:"repository" protobuf:"bytes,1,opt,name=repository"`
	// Commit hash to check out; unset keeps what the clone checked out.
	Revision string `json:"revision,omitempty" protobuf:"bytes,2,opt,name=revision"`
	// Subdirectory to clone into; "." makes the volume root the repository. It
	// may neither begin with nor contain "..".
	Directory string `json:"directory,omitempty" protobuf:"bytes,3,opt,name=directory"`
}
