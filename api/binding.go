package api

// Binding is the body of POST pods/NAME/binding: it assigns the pod to the
// node named in Target. It is never stored; the apiserver turns it into a
// write of pod.spec.nodeName (core/v1).
type Binding struct {
	// Kind "Binding" and apiVersion "v1".
	TypeMeta `json:",inline"`
	// Name and namespace of the pod being bound.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// The node to bind to: kind "Node" and its name.
	Target ObjectReference `json:"target" protobuf:"bytes,2,opt,name=target" structType:"atomic"`
}

// NewBinding returns a Binding of pod namespace/name to node, with its
// TypeMeta set.
func NewBinding(namespace, name, node string) *Binding {
	return &Binding{
		TypeMeta:   TypeMeta{APIVersion: "v1", Kind: "Binding"},
		ObjectMeta: ObjectMeta{Namespace: namespace, Name: name},
		Target:     ObjectReference{Kind: "Node", Name: node},
	}
}
