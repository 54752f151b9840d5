package api

// Scale is the body of the scale subresource (GET/PUT/PATCH
// replicasets/NAME/scale). It is a view of the ReplicaSet, not a stored
// object, and its group-version is autoscaling/v1 although the parent is
// apps/v1.
type Scale struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       ScaleSpec   `json:"spec,omitempty"`
	Status     ScaleStatus `json:"status,omitempty"`
}

// ScaleSpec is the desired replica count.
type ScaleSpec struct {
	Replicas int32 `json:"replicas,omitempty"`
}

// ScaleStatus is the observed count and the parent's selector in string
// form ("app=web"), which is what autoscaling/v1 carries.
type ScaleStatus struct {
	Replicas int32  `json:"replicas"`
	Selector string `json:"selector,omitempty"`
}

// NewScale returns an empty Scale with its TypeMeta set.
func NewScale() *Scale {
	return &Scale{TypeMeta: TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"}}
}
