package api

// EnvVar is one environment variable of a container, given literally or
// taken from another object.
type EnvVar struct {
	// Name of the variable: printable ASCII characters other than '='.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Literal value. $(VAR) is replaced with an earlier variable of the
	// container, or a service variable, when one exists; $$ escapes a $.
	// Defaults to "".
	Value string `json:"value,omitempty" protobuf:"bytes,2,opt,name=value"`
	// Where to read the value from instead; not allowed together with a
	// non-empty value.
	ValueFrom *EnvVarSource `json:"valueFrom,omitempty" protobuf:"bytes,3,opt,name=valueFrom"`
}

// EnvVarSource says where an environment variable's value comes from; exactly
// one field is set.
type EnvVarSource struct {
	// A field of the pod: metadata.name, metadata.namespace, metadata.uid,
	// metadata.labels['<key>'], metadata.annotations['<key>'], spec.nodeName,
	// spec.serviceAccountName, status.hostIP(s) or status.podIP(s).
	FieldRef *ObjectFieldSelector `json:"fieldRef,omitempty" protobuf:"bytes,1,opt,name=fieldRef" structType:"atomic"`
	// A request or limit of a container: limits.cpu, limits.memory,
	// limits.ephemeral-storage or the same under requests.
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty" protobuf:"bytes,2,opt,name=resourceFieldRef" structType:"atomic"`
	// A key of a ConfigMap in the pod's namespace.
	ConfigMapKeyRef *ConfigMapKeySelector `json:"configMapKeyRef,omitempty" protobuf:"bytes,3,opt,name=configMapKeyRef" structType:"atomic"`
	// A key of a Secret in the pod's namespace.
	SecretKeyRef *SecretKeySelector `json:"secretKeyRef,omitempty" protobuf:"bytes,4,opt,name=secretKeyRef" structType:"atomic"`
	// A key of an env file inside one of the pod's volumes (behind the
	// EnvFiles feature gate).
	FileKeyRef *FileKeySelector `json:"fileKeyRef,omitempty" protobuf:"bytes,5,opt,name=fileKeyRef" structType:"atomic"`
}

// EnvFromSource turns every key of a ConfigMap or Secret into an environment
// variable; exactly one of the references is set.
type EnvFromSource struct {
	// Text put in front of every variable name taken from the source;
	// printable ASCII characters other than '='.
	Prefix string `json:"prefix,omitempty" protobuf:"bytes,1,opt,name=prefix"`
	// The ConfigMap whose keys to use.
	ConfigMapRef *ConfigMapEnvSource `json:"configMapRef,omitempty" protobuf:"bytes,2,opt,name=configMapRef"`
	// The Secret whose keys to use.
	SecretRef *SecretEnvSource `json:"secretRef,omitempty" protobuf:"bytes,3,opt,name=secretRef"`
}

// ConfigMapEnvSource names a ConfigMap whose data keys all become environment
// variables (binaryData keys do not).
type ConfigMapEnvSource struct {
	// Name of the ConfigMap, in the pod's namespace.
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	// If true, a missing ConfigMap is not an error; the container simply
	// gets no variables from it.
	Optional *bool `json:"optional,omitempty" protobuf:"varint,2,opt,name=optional"`
}

// SecretEnvSource names a Secret whose data keys all become environment
// variables.
type SecretEnvSource struct {
	// Name of the Secret, in the pod's namespace.
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	// If true, a missing Secret is not an error; the container simply gets
	// no variables from it.
	Optional *bool `json:"optional,omitempty" protobuf:"varint,2,opt,name=optional"`
}

// ObjectFieldSelector points at one field of an object by path, e.g.
// "metadata.name".
type ObjectFieldSelector struct {
	// API version the path is written against; defaults to "v1".
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,1,opt,name=apiVersion"`
	// Path of the field, e.g. "metadata.labels['app']". Required.
	FieldPath string `json:"fieldPath" protobuf:"bytes,2,opt,name=fieldPath"`
}

// ResourceFieldSelector points at a request or limit of a container and says
// in which unit to express it.
type ResourceFieldSelector struct {
	// Container whose resources to read; required in a volume, defaults to
	// the container itself in an environment variable.
	ContainerName string `json:"containerName,omitempty" protobuf:"bytes,1,opt,name=containerName"`
	// Which value, e.g. "limits.cpu" or "requests.memory". Required.
	Resource string `json:"resource" protobuf:"bytes,2,opt,name=resource"`
	// Unit the value is divided by (and rounded up) before it is shown, e.g.
	// "1m" for millicores or "1Mi" for mebibytes; defaults to "1".
	Divisor Quantity `json:"divisor,omitempty" protobuf:"bytes,3,opt,name=divisor"`
}

// ConfigMapKeySelector points at one key of a ConfigMap.
type ConfigMapKeySelector struct {
	// Name of the ConfigMap, in the pod's namespace.
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	// Key in the ConfigMap's data (binaryData keys cannot be used).
	Key string `json:"key" protobuf:"bytes,2,opt,name=key"`
	// If true, a missing ConfigMap or key is not an error and the variable
	// is left unset.
	Optional *bool `json:"optional,omitempty" protobuf:"varint,3,opt,name=optional"`
}

// SecretKeySelector points at one key of a Secret.
type SecretKeySelector struct {
	// Name of the Secret, in the pod's namespace.
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	// Key in the Secret's data; must be a valid secret key.
	Key string `json:"key" protobuf:"bytes,2,opt,name=key"`
	// If true, a missing Secret or key is not an error and the variable is
	// left unset.
	Optional *bool `json:"optional,omitempty" protobuf:"varint,3,opt,name=optional"`
}

// FileKeySelector points at one key of an env file (KEY=value lines) inside
// one of the pod's volumes.
type FileKeySelector struct {
	// Name of the volume that holds the file. Required.
	VolumeName string `json:"volumeName" protobuf:"bytes,1,opt,name=volumeName"`
	// Path of the file inside the volume: relative, without "..". Required.
	Path string `json:"path" protobuf:"bytes,2,opt,name=path"`
	// Key to read from the file: printable ASCII characters other than '=',
	// at most 128 while the feature is alpha. The pod does not start if the
	// key is invalid. Required.
	Key string `json:"key" protobuf:"bytes,3,opt,name=key"`
	// If true, a missing file or key leaves the variable unset; if false
	// (the default), it is an error.
	Optional *bool `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
}
