package api

// Binding is the body of POST pods/NAME/binding: it assigns the pod to the
// node named in Target. It is never stored; the apiserver turns it into a
// write of pod.spec.nodeName (core/v1).
type Binding struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Target     ObjectReference `json:"target"`
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
