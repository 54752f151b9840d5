// Package node is the Node authorizer: a kubelet (user system:node:<name>
// in group system:nodes) may do what NodeRules allow, but may read a
// secret, configmap or persistent volume claim, or ask for a service
// account token, only when a pod bound to its node uses it. What it may
// write is narrowed further by the NodeRestriction admission plugin.
//
// Where it sits on the spine: between the privileged-groups authorizer and
// RBAC in the apiserver's union. Other users get NoOpinion.
//
// Kubernetes counterpart (v1.37.2): plugin/pkg/auth/authorizer/node/
// node_authorizer.go (NodeAuthorizer.Authorize, authorizeGet,
// authorizeCreateToken) and pkg/auth/nodeidentifier/default.go
// (NodeIdentity).
//
// What we simplify: Kubernetes keeps a graph of pods, nodes and what pods
// reference, updated by informers; we keep only the pods by node
// (podindex.go, fed by a watch of the pod storage) and scan the node's
// pods for the reference on each such request. No persistent volumes,
// resource claims or attachments; lists and watches of these kinds are
// refused outright.
package node
