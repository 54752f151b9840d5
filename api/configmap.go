package api

// ConfigMap holds non-secret configuration as string pairs. It has no spec
// and no status, so it has no generation.
type ConfigMap struct {
	// Kind "ConfigMap" and apiVersion "v1".
	TypeMeta `json:",inline"`
	// Standard object metadata.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// When true, data and binaryData can no longer change; only metadata
	// can. It cannot be set back.
	Immutable *bool `json:"immutable,omitempty" protobuf:"varint,4,opt,name=immutable"`
	// UTF-8 configuration values by key. Keys use letters, digits, "-", "_"
	// and "."; none may also appear in binaryData.
	Data map[string]string `json:"data,omitempty" protobuf:"bytes,2,rep,name=data"`
	// Non-UTF-8 values by key, base64 on the JSON wire. Same key rules as
	// data, with no key in both. Env var sources read only data.
	BinaryData map[string][]byte `json:"binaryData,omitempty" protobuf:"bytes,3,rep,name=binaryData"`
}

// ConfigMapList is a list of ConfigMaps.
type ConfigMapList = List[ConfigMap, *ConfigMap]
