// Package rbac is the registry of the RBAC kinds (rbac.authorization.k8s.io/v1
// Role, ClusterRole, RoleBinding, ClusterRoleBinding): their REST storage,
// which refuses a write that would grant more than its writer holds
// (escalation prevention).
//
// Where it sits on the spine: below the handlers like every registry. The
// strategies are the generic ones (these kinds have neither spec nor
// status); validation and defaulting are in package admission.
//
// Kubernetes counterparts (v1.37.2): pkg/registry/rbac/role,
// clusterrole, rolebinding and clusterrolebinding (strategy.go, and
// policybased/storage.go for escalation), pkg/registry/rbac/escalation_check.go
// (EscalationAllowed, RoleEscalationAuthorized, BindingAuthorized).
package rbac
