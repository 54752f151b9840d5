// Package serviceaccount is the ServiceAccount controller: every active
// namespace has a ServiceAccount named "default", created when the
// namespace appears and created again whenever it is deleted. Pods that
// name no ServiceAccount run as "default", so it must exist.
//
// Where it sits on the spine: a controller of the controller manager. Its
// key is a namespace, not a ServiceAccount: a namespace added or updated
// (including every resync), or a ServiceAccount deleted, queues the
// namespace, and syncNamespace creates what that namespace lacks, judging
// from the informer's cache. A create that finds one already there
// (AlreadyExists), or a namespace that started terminating meanwhile, is
// no failure.
//
// Kubernetes counterpart (v1.37.2): pkg/controller/serviceaccount/
// serviceaccounts_controller.go (NewServiceAccountsController,
// serviceAccountDeleted, namespaceAdded, namespaceUpdated, syncNamespace,
// DefaultServiceAccountsControllerOptions).
//
// What we leave out: tokens. Kubernetes' token controller (legacy Secret
// tokens) and the TokenRequest API belong to authentication, which
// kubeloop does not have yet.
package serviceaccount
