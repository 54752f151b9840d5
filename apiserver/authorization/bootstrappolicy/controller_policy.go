package bootstrappolicy

import "kubeloop/api"

// ControllerNamespace is where the controllers' service accounts live.
const ControllerNamespace = "kube-system"

// controllerRolePrefix starts every controller role's name.
const controllerRolePrefix = "system:controller:"

// ControllerRoles is one ClusterRole per controller: exactly what its
// reconcile reads and writes. Kubernetes: controller_policy.go
// (buildControllerRoles).
func ControllerRoles() []api.ClusterRole {
	c := func(account string, rs ...*ruleBuilder) api.ClusterRole {
		return clusterRole(controllerRolePrefix+account, nil, rs...)
	}
	events := eventsRule()
	withEvents := func(rs ...*ruleBuilder) []*ruleBuilder { return append(rs, events...) }
	return []api.ClusterRole{
		// Aggregation writes rules it does not hold itself: escalate.
		c("clusterrole-aggregation-controller",
			rule("escalate", "get", "list", "watch", "update", "patch").groups(rbacGroup).resources("clusterroles")),
		c("deployment-controller", withEvents(
			rule("get", "list", "watch", "update").groups(appsGroup).resources("deployments"),
			rule("update").groups(appsGroup).resources("deployments/status"),
			rule("update").groups(appsGroup).resources("deployments/finalizers"),
			rule("get", "list", "watch", "create", "update", "patch", "delete").groups(appsGroup).resources("replicasets"),
			rule("get", "list", "watch", "update").groups(legacyGroup).resources("pods"))...),
		c("replicaset-controller", withEvents(
			rule("get", "list", "watch", "update").groups(appsGroup).resources("replicasets"),
			rule("update").groups(appsGroup).resources("replicasets/status"),
			rule("update").groups(appsGroup).resources("replicasets/finalizers"),
			rule("list", "watch", "patch", "create", "delete").groups(legacyGroup).resources("pods"))...),
		c("job-controller", withEvents(
			rule("get", "list", "watch", "update", "patch").groups(batchGroup).resources("jobs"),
			rule("update").groups(batchGroup).resources("jobs/status"),
			rule("update").groups(batchGroup).resources("jobs/finalizers"),
			rule("list", "watch", "create", "delete", "patch").groups(legacyGroup).resources("pods"))...),
		c("generic-garbage-collector", withEvents(
			rule("get", "list", "watch", "patch", "update", "delete").groups("*").resources("*"))...),
		c("namespace-controller",
			rule("get", "list", "watch", "delete").groups(legacyGroup).resources("namespaces"),
			rule("update").groups(legacyGroup).resources("namespaces/finalize", "namespaces/status"),
			rule("get", "list", "watch", "delete", "deletecollection").groups("*").resources("*")),
		c("node-controller", withEvents(
			rule("get", "list", "watch", "update", "delete", "patch").groups(legacyGroup).resources("nodes"),
			rule("patch", "update").groups(legacyGroup).resources("nodes/status"),
			rule("update", "patch").groups(legacyGroup).resources("pods/status"),
			rule("list", "watch", "get", "delete").groups(legacyGroup).resources("pods"))...),
		c("pod-garbage-collector",
			rule("list", "watch", "delete").groups(legacyGroup).resources("pods"),
			rule("get", "list", "watch").groups(legacyGroup).resources("nodes"),
			rule("patch").groups(legacyGroup).resources("pods/status")),
		c("service-account-controller", withEvents(
			rule("create").groups(legacyGroup).resources("serviceaccounts"))...),
		c("ttl-after-finished-controller", withEvents(
			rule("get", "list", "watch", "delete").groups(batchGroup).resources("jobs"))...),
		c("root-ca-cert-publisher", withEvents(
			rule("create", "update").groups(legacyGroup).resources("configmaps"))...),
		// The tutorial's labeler: it reads configmaps and labels them,
		// nothing else — not even events.
		c("labeler",
			rule("get", "list", "watch", "update").groups(legacyGroup).resources("configmaps")),
	}
}

// ControllerRoleBindings binds each controller role to its service
// account in kube-system.
func ControllerRoleBindings() []api.ClusterRoleBinding {
	var out []api.ClusterRoleBinding
	for _, r := range ControllerRoles() {
		account := r.Name[len(controllerRolePrefix):]
		out = append(out, clusterRoleBinding(r.Name, serviceAccount(ControllerNamespace, account)))
	}
	return out
}
