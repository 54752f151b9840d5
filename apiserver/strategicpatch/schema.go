package strategicpatch

// Schema is what the patcher needs to know about one JSON object: for each
// field that is a list or an object, how to merge it. Fields it does not
// list are merged the JSON merge patch way (objects recursively, lists and
// scalars replaced).
type Schema struct {
	Fields map[string]*Field
}

// Field is the patch metadata of one field, as Kubernetes' patchStrategy
// and patchMergeKey struct tags say.
type Field struct {
	// Merge: the list is merged instead of replaced. A list of objects is
	// merged by MergeKey; a list of scalars is unioned.
	Merge    bool
	MergeKey string
	// Schema describes the field's value (an object) or, for a list, its
	// elements.
	Schema *Schema
}

// field looks up a field; a nil schema knows nothing.
func (s *Schema) field(name string) *Field {
	if s == nil {
		return nil
	}
	return s.Fields[name]
}

// sub is the schema of a field's value, nil if unknown.
func (s *Schema) sub(name string) *Schema {
	if f := s.field(name); f != nil {
		return f.Schema
	}
	return nil
}

func object(fields map[string]*Field) *Schema { return &Schema{Fields: fields} }

func nested(s *Schema) *Field { return &Field{Schema: s} }

func mergeBy(key string, elem *Schema) *Field {
	return &Field{Merge: true, MergeKey: key, Schema: elem}
}

func mergeScalars() *Field { return &Field{Merge: true} }

// The tables below follow the patch tags of k8s.io/api v0.37.2
// (core/v1/types.go, apps/v1/types.go, meta/v1/types.go). Lists Kubernetes
// marks atomic or gives no strategy (tolerations, node taints,
// containerStatuses, nodeSelectorTerms) are absent and so replaced.

func objectMetaSchema() *Schema {
	return object(map[string]*Field{
		"finalizers":      mergeScalars(),
		"ownerReferences": mergeBy("uid", nil),
	})
}

func containerSchema() *Schema {
	return object(map[string]*Field{
		"ports":         mergeBy("containerPort", nil),
		"env":           mergeBy("name", nil),
		"volumeMounts":  mergeBy("mountPath", nil),
		"volumeDevices": mergeBy("devicePath", nil),
	})
}

func podSpecSchema() *Schema {
	c := containerSchema()
	return object(map[string]*Field{
		"containers":                mergeBy("name", c),
		"initContainers":            mergeBy("name", c),
		"ephemeralContainers":       mergeBy("name", c),
		"volumes":                   mergeBy("name", nil),
		"imagePullSecrets":          mergeBy("name", nil),
		"hostAliases":               mergeBy("ip", nil),
		"topologySpreadConstraints": mergeBy("topologyKey", nil),
		"schedulingGates":           mergeBy("name", nil),
		"resourceClaims":            mergeBy("name", nil),
	})
}

func podStatusSchema() *Schema {
	return object(map[string]*Field{
		"conditions": mergeBy("type", nil),
		"podIPs":     mergeBy("ip", nil),
		"hostIPs":    mergeBy("ip", nil),
	})
}

func conditionsStatus() *Schema {
	return object(map[string]*Field{"conditions": mergeBy("type", nil)})
}

// PodSchema is the schema of a core/v1 Pod.
func PodSchema() *Schema {
	return object(map[string]*Field{
		"metadata": nested(objectMetaSchema()),
		"spec":     nested(podSpecSchema()),
		"status":   nested(podStatusSchema()),
	})
}

// ReplicaSetSchema is the schema of an apps/v1 ReplicaSet: its pod template
// merges like a pod.
func ReplicaSetSchema() *Schema {
	template := object(map[string]*Field{
		"metadata": nested(objectMetaSchema()),
		"spec":     nested(podSpecSchema()),
	})
	return object(map[string]*Field{
		"metadata": nested(objectMetaSchema()),
		"spec":     nested(object(map[string]*Field{"template": nested(template)})),
		"status":   nested(conditionsStatus()),
	})
}

// NodeSchema is the schema of a core/v1 Node.
func NodeSchema() *Schema {
	return object(map[string]*Field{
		"metadata": nested(objectMetaSchema()),
		"spec":     nested(object(map[string]*Field{"podCIDRs": mergeScalars()})),
		"status": nested(object(map[string]*Field{
			"conditions": mergeBy("type", nil),
			"addresses":  mergeBy("type", nil),
		})),
	})
}

// NamespaceSchema is the schema of a core/v1 Namespace.
func NamespaceSchema() *Schema {
	return object(map[string]*Field{
		"metadata": nested(objectMetaSchema()),
		"status":   nested(conditionsStatus()),
	})
}

// MetadataOnlySchema fits kinds whose only merge lists are in metadata
// (ConfigMap, Event, Lease).
func MetadataOnlySchema() *Schema {
	return object(map[string]*Field{"metadata": nested(objectMetaSchema())})
}

// ForKind returns the schema of a kind kubeloop serves, or the metadata-only
// schema for any other.
func ForKind(group, kind string) *Schema {
	switch group + "/" + kind {
	case "/Pod":
		return PodSchema()
	case "apps/ReplicaSet":
		return ReplicaSetSchema()
	case "/Node":
		return NodeSchema()
	case "/Namespace":
		return NamespaceSchema()
	}
	return MetadataOnlySchema()
}
