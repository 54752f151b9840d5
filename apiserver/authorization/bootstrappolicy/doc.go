// Package bootstrappolicy is the RBAC policy every cluster starts with:
// the user-facing roles (cluster-admin, admin, edit, view), the roles every
// authenticated or anonymous client needs (system:discovery,
// system:public-info-viewer, system:basic-user), the component roles
// (system:kube-controller-manager, system:kube-scheduler, system:node) and
// one role per controller (system:controller:<name>) for a controller
// manager that runs each controller with its own ServiceAccount.
//
// Where it sits on the spine: data. The apiserver reconciles it into the
// RBAC resources at start (registry/rbac Reconcile); the Node authorizer
// uses NodeRules.
//
// Kubernetes counterparts (v1.37.2): plugin/pkg/auth/authorizer/rbac/
// bootstrappolicy/policy.go (ClusterRoles, ClusterRoleBindings, NodeRules),
// controller_policy.go (ControllerRoles, ControllerRoleBindings) and
// namespace_policy.go.
//
// What we simplify: only the resources kubeloop serves and the controllers
// it runs are named, so the roles are shorter than Kubernetes'; no
// namespaced bootstrap roles (kube-system's leader-election and
// extension-apiserver-authentication readers), no kube-proxy,
// volume-scheduler or certificate roles.
package bootstrappolicy
