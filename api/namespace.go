package api

// Namespace scopes names; deleting one deletes everything in it (core/v1).
type Namespace struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       NamespaceSpec   `json:"spec,omitempty"`
	Status     NamespaceStatus `json:"status,omitempty"`
}

// NamespaceList is a list of Namespaces.
type NamespaceList = List[Namespace, *Namespace]

// NamespaceSpec holds the finalizers that must run before the namespace
// goes away; they are separate from metadata.finalizers.
type NamespaceSpec struct {
	Finalizers []FinalizerName `json:"finalizers,omitempty"`
}

// FinalizerName names a namespace finalizer.
type FinalizerName string

// FinalizerKubernetes is the namespace finalizer the namespace controller
// removes once the namespace is empty.
const FinalizerKubernetes FinalizerName = "kubernetes"

// NamespaceStatus is the namespace's lifecycle phase.
type NamespaceStatus struct {
	Phase NamespacePhase `json:"phase,omitempty"`
}

// NamespacePhase is Active or Terminating.
type NamespacePhase string

// The namespace phases.
const (
	NamespaceActive      NamespacePhase = "Active"
	NamespaceTerminating NamespacePhase = "Terminating"
)

// Well-known namespaces.
const (
	NamespaceDefault   = "default"
	NamespaceSystem    = "kube-system"
	NamespaceNodeLease = "kube-node-lease"
	NamespacePublic    = "kube-public"
	NamespaceAll       = ""
)
