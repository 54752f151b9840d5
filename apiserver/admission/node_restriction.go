package admission

import (
	"context"
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/authorization/node"
)

// NodeRestriction limits what a kubelet (system:node:<name>) may write:
// its own Node object, its own Lease in kube-node-lease, and the status of
// (and deletion of) pods bound to its node. The Node authorizer lets any
// kubelet write nodes, leases and pod status at all; this plugin narrows
// that to "its own", which needs the object, hence admission.
// Kubernetes: plugin/pkg/admission/noderestriction/admission.go
// (admitPod, admitPodStatus, admitNode, admitLease). What we leave out:
// mirror pods (kubeloop's kubelet makes none, so a kubelet may not create
// pods at all), node label restrictions, evictions, tokens, resource
// claims and CSINodes.
type NodeRestriction struct{}

var _ ValidationInterface = NodeRestriction{}

// NodeLeaseNamespace holds the kubelets' heartbeat leases.
const NodeLeaseNamespace = "kube-node-lease"

// Validate refuses a kubelet's write to anything not its own.
func (NodeRestriction) Validate(ctx context.Context, a *Attributes) error {
	u, _ := user.From(ctx)
	nodeName, isNode := node.NodeIdentity(u)
	if !isNode || a.Resource == nil {
		return nil
	}
	forbid := func(format string, args ...any) error {
		return NewForbidden(a.groupResource(), a.objectName(), fmt.Errorf(format, args...))
	}
	if nodeName == "" {
		return forbid("could not determine node from user %q", u.Name)
	}
	switch a.Resource.Group + "/" + a.Resource.Resource {
	case "/pods":
		return admitPod(a, nodeName, forbid)
	case "/nodes":
		if name := a.objectName(); name != nodeName {
			return forbid("node %q is not allowed to modify node %q", nodeName, name)
		}
	case "coordination.k8s.io/leases":
		if a.Namespace != NodeLeaseNamespace {
			return forbid("can only access leases in the %q namespace", NodeLeaseNamespace)
		}
		if a.objectName() != nodeName {
			return forbid("can only access node lease with the same name as the requesting node")
		}
	}
	return nil
}

func admitPod(a *Attributes, nodeName string, forbid func(string, ...any) error) error {
	bound := func(obj api.Object) string {
		if p, ok := obj.(*api.Pod); ok {
			return p.Spec.NodeName
		}
		return ""
	}
	switch {
	case a.Subresource == "status":
		if bound(a.OldObject) != nodeName {
			return forbid("node %q can only update pod status for pods with spec.nodeName set to itself", nodeName)
		}
	case a.Subresource != "":
		return forbid("unexpected subresource %q, node %q can only update pod status", a.Subresource, nodeName)
	case a.Operation == Create:
		return forbid("pod does not have %q annotation, node %q can only create mirror pods", "kubernetes.io/config.mirror", nodeName)
	case a.Operation == Update:
		return forbid("unexpected operation %q, node %q can only create and delete mirror pods", a.Operation, nodeName)
	case a.Operation == Delete:
		if bound(a.OldObject) != nodeName {
			return forbid("node %q can only delete pods with spec.nodeName set to itself", nodeName)
		}
	}
	return nil
}
