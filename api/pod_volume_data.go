package api

// This file holds the volume sources whose files the kubelet writes from API
// data: a Secret, a ConfigMap, or fields of the pod itself. Their projected
// counterparts are in pod_volume_projected.go.

// SecretVolumeSource turns a Secret of the pod's namespace into a directory:
// by default one file per data key, named after the key. The kubelet sets the
// files' ownership and SELinux labels.
type SecretVolumeSource struct {
	// Name of the Secret, in the pod's namespace.
	SecretName string `json:"secretName,omitempty" protobuf:"bytes,1,opt,name=secretName"`
	// Which keys to write, and where. Unset writes every key under its own name;
	// set writes only the listed keys. A listed key missing from the Secret
	// fails the mount unless optional is true.
	Items []KeyToPath `json:"items,omitempty" protobuf:"bytes,2,rep,name=items" listType:"atomic"`
	// Permission bits of the files written, 0 to 0777 (JSON needs the decimal
	// form, 0 to 511); default 0644. Directories keep their mode, and fsGroup
	// may add bits.
	DefaultMode *int32 `json:"defaultMode,omitempty" protobuf:"varint,3,opt,name=defaultMode"`
	// When true the pod starts even if the Secret or a listed key is missing.
	Optional *bool `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
	// UID that owns the files when an item sets no user of its own.
	// Alpha (AtomicWriteVolumeUserFields gate).
	DefaultUser *int64 `json:"defaultUser,omitempty" protobuf:"varint,5,opt,name=defaultUser"`
}

// ConfigMapVolumeSource turns a ConfigMap of the pod's namespace into a
// directory: by default one file per data key, named after the key. The
// kubelet sets the files' ownership and SELinux labels.
type ConfigMapVolumeSource struct {
	// Name of the ConfigMap, in the pod's namespace.
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	// Which keys to write, and where. Unset writes every key under its own name;
	// set writes only the listed keys. A listed key missing from the ConfigMap
	// fails the mount unless optional is true.
	Items []KeyToPath `json:"items,omitempty" protobuf:"bytes,2,rep,name=items" listType:"atomic"`
	// Permission bits of the files written, 0 to 0777 (JSON needs the decimal
	// form, 0 to 511); default 0644. Directories keep their mode, and fsGroup
	// may add bits.
	DefaultMode *int32 `json:"defaultMode,omitempty" protobuf:"varint,3,opt,name=defaultMode"`
	// When true the pod starts even if the ConfigMap or a listed key is missing.
	Optional *bool `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
	// UID that owns the files when an item sets no user of its own.
	// Alpha (AtomicWriteVolumeUserFields gate).
	DefaultUser *int64 `json:"defaultUser,omitempty" protobuf:"varint,5,opt,name=defaultUser"`
}

// DownwardAPIVolumeSource is a directory of files that describe the pod
// (its metadata and its containers' resources), kept current by the kubelet.
type DownwardAPIVolumeSource struct {
	// The files to write, one per entry.
	Items []DownwardAPIVolumeFile `json:"items,omitempty" protobuf:"bytes,1,rep,name=items" listType:"atomic"`
	// Permission bits of the files written, 0 to 0777 (JSON needs the decimal
	// form, 0 to 511); default 0644. Directories keep their mode, and fsGroup
	// may add bits.
	DefaultMode *int32 `json:"defaultMode,omitempty" protobuf:"varint,2,opt,name=defaultMode"`
	// UID that owns the files when an item sets no user of its own.
	// Alpha (AtomicWriteVolumeUserFields gate).
	DefaultUser *int64 `json:"defaultUser,omitempty" protobuf:"varint,3,opt,name=defaultUser"`
}

// KeyToPath writes one key of a Secret or ConfigMap to a chosen file.
type KeyToPath struct {
	// The data key whose value becomes the file's content.
	Key string `json:"key" protobuf:"bytes,1,opt,name=key"`
	// File path relative to the volume root; must not be absolute, contain a
	// ".." element or start with "..".
	Path string `json:"path" protobuf:"bytes,2,opt,name=path"`
	// Permission bits of this file, 0 to 0777 (decimal 0 to 511 in JSON);
	// unset uses the volume's defaultMode.
	Mode *int32 `json:"mode,omitempty" protobuf:"varint,3,opt,name=mode"`
	// UID that owns this file, overriding the volume's defaultUser.
	// Alpha (AtomicWriteVolumeUserFields gate).
	User *int64 `json:"user,omitempty" protobuf:"varint,4,opt,name=user"`
}

// DownwardAPIVolumeFile is one file of a downward API volume: a path and the
// single pod field or container resource whose value it holds.
type DownwardAPIVolumeFile struct {
	// File path relative to the volume root, UTF-8; must not be absolute,
	// contain a ".." element or start with "..".
	Path string `json:"path" protobuf:"bytes,1,opt,name=path"`
	// A pod field to write: metadata.name, metadata.namespace, metadata.uid,
	// metadata.labels or metadata.annotations (one label or annotation may
	// be chosen with ['key']). Set this or resourceFieldRef.
	FieldRef *ObjectFieldSelector `json:"fieldRef,omitempty" protobuf:"bytes,2,opt,name=fieldRef" structType:"atomic"`
	// A container's limit or request to write: cpu, memory, ephemeral-storage
	// or hugepages (e.g. limits.cpu, requests.memory).
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty" protobuf:"bytes,3,opt,name=resourceFieldRef" structType:"atomic"`
	// Permission bits of this file, 0 to 0777 (decimal 0 to 511 in JSON);
	// unset uses the volume's defaultMode.
	Mode *int32 `json:"mode,omitempty" protobuf:"varint,4,opt,name=mode"`
	// UID that owns this file, overriding the volume's defaultUser.
	// Alpha (AtomicWriteVolumeUserFields gate).
	User *int64 `json:"user,omitempty" protobuf:"varint,5,opt,name=user"`
}
