// Package union asks several authorizers in turn: the first Allow or Deny
// decides, and a request nobody decides is refused with every reason
// given. It also holds the privileged-groups authorizer that lets
// system:masters do anything without RBAC being asked.
//
// Where it sits on the spine: the apiserver's authorizer is
// union.New(privileged groups, Node, RBAC), which the authorization filter
// and the access review APIs ask.
//
// Kubernetes counterparts (v1.37.2): staging/src/k8s.io/apiserver/pkg/
// authorization/union/union.go (New, unionAuthzHandler.Authorize) and
// authorizerfactory/builtin.go (NewPrivilegedGroups).
//
// What we simplify: no union of rule resolvers (the rules review asks RBAC
// alone).
package union
