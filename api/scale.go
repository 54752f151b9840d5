package api

// Scale is the body of the scale subresource (GET/PUT/PATCH
// replicasets/NAME/scale). It is a view of the ReplicaSet, not a stored
// object, and its group-version is autoscaling/v1 although the parent is
// apps/v1.
type Scale struct {
	// Kind "Scale" and apiVersion "autoscaling/v1".
	TypeMeta `json:",inline"`
	// Metadata of the parent object (name, namespace, resourceVersion, ...).
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Desired number of replicas.
	Spec ScaleSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// Observed number of replicas and the pod selector.
	Status ScaleStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ScaleSpec is the desired replica count.
type ScaleSpec struct {
	// Number of replicas wanted.
	Replicas int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
}

// ScaleStatus is the observed count and the parent's selector in string
// form ("app=web"), which is what autoscaling/v1 carries.
type ScaleStatus struct {
	// Number of replicas last observed.
	Replicas int32 `json:"replicas" protobuf:"varint,1,opt,name=replicas"`
	// Label selector of the parent's pods, in string form.
	Selector string `json:"selector,omitempty" protobuf:"bytes,2,opt,name=selector"`
}

// NewScale returns an empty Scale with its TypeMeta set.
func NewScale() *Scale {
	return &Scale{TypeMeta: TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"}}
}
