// Package clusterroleaggregation is the controller that fills the rules of
// every ClusterRole with an aggregationRule with the rules of the
// ClusterRoles its selectors match. That is how admin, edit and view come
// to hold anything, and how a cluster extends them: a ClusterRole labelled
// rbac.authorization.k8s.io/aggregate-to-view=true adds its rules to view
// (and, through view's own label, to edit and admin).
//
// Where it sits on the spine: a controller like the others, reading
// ClusterRoles through an informer and writing them through the API. It
// writes rules it may not hold itself, which is why its bootstrap role
// has the escalate verb on clusterroles.
//
// Kubernetes counterpart (v1.37.2): pkg/controller/clusterroleaggregation/
// clusterroleaggregation_controller.go (NewClusterRoleAggregation,
// syncClusterRole, enqueue).
//
// What we simplify: the write is an update, not a server-side apply with a
// fallback to update.
package clusterroleaggregation
