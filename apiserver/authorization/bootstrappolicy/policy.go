package bootstrappolicy

import (
	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
)

// The labels that aggregate a role into admin, edit and view.
const (
	aggregateToAdmin = "rbac.authorization.k8s.io/aggregate-to-admin"
	aggregateToEdit  = "rbac.authorization.k8s.io/aggregate-to-edit"
	aggregateToView  = "rbac.authorization.k8s.io/aggregate-to-view"
)

// aggregated is a ClusterRole whose rules the clusterrole-aggregation
// controller fills from every ClusterRole labelled selector=true.
func aggregated(name, selector string, labels map[string]string) api.ClusterRole {
	r := clusterRole(name, labels)
	r.AggregationRule = &api.AggregationRule{ClusterRoleSelectors: []api.LabelSelector{
		{MatchLabels: map[string]string{selector: "true"}},
	}}
	return r
}

// ClusterRoles is the cluster-wide bootstrap roles. Kubernetes:
// policy.go ClusterRoles.
func ClusterRoles() []api.ClusterRole {
	edit := []string{"create", "delete", "deletecollection", "patch", "update"}
	roles := []api.ClusterRole{
		// Everything, everywhere: what system:masters is bound to.
		clusterRole("cluster-admin", nil,
			rule("*").groups("*").resources("*"),
			rule("*").urls("*")),
		// The user-facing roles are unions of the aggregate-to-* roles below
		// (and of any a cluster adds with the same labels). Each level
		// aggregates into the one above: view ⊂ edit ⊂ admin.
		aggregated("admin", aggregateToAdmin, nil),
		aggregated("edit", aggregateToEdit, map[string]string{aggregateToAdmin: "true"}),
		aggregated("view", aggregateToView, map[string]string{aggregateToEdit: "true"}),

		// admin adds: managing who may do what in the namespace.
		clusterRole("system:aggregate-to-admin", map[string]string{aggregateToAdmin: "true"},
			rule(readWrite...).groups(rbacGroup).resources("roles", "rolebindings"),
			rule("create").groups(authorizationGroup).resources("localsubjectaccessreviews")),
		// edit adds: writing workloads and their config, secrets included,
		// and acting as the namespace's service accounts.
		clusterRole("system:aggregate-to-edit", map[string]string{aggregateToEdit: "true"},
			rule(edit...).groups(legacyGroup).resources("pods", "pods/attach", "pods/exec", "pods/portforward", "pods/proxy"),
			rule(edit...).groups(legacyGroup).resources("pods/eviction"),
			rule(readWrite...).groups(legacyGroup).resources("configmaps", "events", "persistentvolumeclaims",
				"replicationcontrollers", "replicationcontrollers/scale", "secrets", "serviceaccounts",
				"services", "services/proxy", "endpoints"),
			rule("create").groups(legacyGroup).resources("serviceaccounts/token"),
			rule("impersonate").groups(legacyGroup).resources("serviceaccounts"),
			rule(readWrite...).groups(appsGroup).resources("daemonsets", "deployments", "deployments/rollback",
				"deployments/scale", "replicasets", "replicasets/scale", "statefulsets", "statefulsets/scale"),
			rule(readWrite...).groups(autoscalingGroup).resources("horizontalpodautoscalers"),
			rule(readWrite...).groups(batchGroup).resources("cronjobs", "jobs"),
			rule(readWrite...).groups(coordinationGroup).resources("leases")),
		// view: reading everything in a namespace except secrets (reading a
		// secret is as good as holding its token).
		clusterRole("system:aggregate-to-view", map[string]string{aggregateToView: "true"},
			rule(read...).groups(legacyGroup).resources("pods", "pods/status", "pods/log", "configmaps", "endpoints",
				"persistentvolumeclaims", "persistentvolumeclaims/status", "replicationcontrollers",
				"replicationcontrollers/scale", "replicationcontrollers/status", "serviceaccounts",
				"services", "services/status", "bindings", "events", "limitranges", "resourcequotas",
				"resourcequotas/status", "namespaces", "namespaces/status"),
			rule(read...).groups(appsGroup).resources("controllerrevisions", "daemonsets", "daemonsets/status",
				"deployments", "deployments/scale", "deployments/status", "replicasets", "replicasets/scale",
				"replicasets/status", "statefulsets", "statefulsets/scale", "statefulsets/status"),
			rule(read...).groups(autoscalingGroup).resources("horizontalpodautoscalers", "horizontalpodautoscalers/status"),
			rule(read...).groups(batchGroup).resources("cronjobs", "cronjobs/status", "jobs", "jobs/status")),

		// What every client needs before it can do anything: discovery and
		// the OpenAPI documents (authenticated), health and version
		// (anyone), and asking what it may do itself.
		clusterRole("system:discovery", nil,
			rule("get").urls("/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi", "/openapi/*",
				"/readyz", "/version", "/version/")),
		clusterRole("system:public-info-viewer", nil,
			rule("get").urls("/healthz", "/livez", "/readyz", "/version", "/version/")),
		clusterRole("system:basic-user", nil,
			rule("create").groups(authorizationGroup).resources("selfsubjectaccessreviews", "selfsubjectrulesreviews"),
			rule("create").groups(authenticationGrp).resources("selfsubjectreviews")),
		clusterRole("system:monitoring", nil,
			rule("get").urls("/metrics", "/metrics/slis", "/livez", "/readyz", "/healthz", "/livez/*", "/readyz/*", "/healthz/*")),

		kubeControllerManagerRole(),
		kubeSchedulerRole(),
		clusterRole("system:node", nil, nodeRuleBuilders()...),
	}
	return roles
}

// kubeControllerManagerRole is what the controller manager's own identity
// holds: watching everything (its informers), leader election, events,
// and making the service accounts and tokens that the per-controller
// identities then use. Everything a controller writes comes from that
// controller's role (ControllerRoles), so a controller manager that does
// not use service account credentials has too little to run them: that
// is Kubernetes' design, not an accident.
func kubeControllerManagerRole() api.ClusterRole {
	return clusterRole(user.KubeControllerManager, nil, append(eventsRule(),
		rule("create").groups(coordinationGroup).resources("leases"),
		rule("get", "update").groups(coordinationGroup).resources("leases").names("kube-controller-manager"),
		rule("create").groups(legacyGroup).resources("secrets", "serviceaccounts"),
		rule("delete").groups(legacyGroup).resources("secrets"),
		rule("get").groups(legacyGroup).resources("namespaces", "secrets", "serviceaccounts", "configmaps"),
		rule("update").groups(legacyGroup).resources("secrets", "serviceaccounts"),
		rule("create").groups(authenticationGrp).resources("tokenreviews"),
		rule("create").groups(authorizationGroup).resources("subjectaccessreviews"),
		rule("list", "watch").groups("*").resources("*"),
		rule("create").groups(legacyGroup).resources("serviceaccounts/token"),
	)...)
}

// kubeSchedulerRole: read nodes and pods, bind pods, write their status,
// leader election and events.
func kubeSchedulerRole() api.ClusterRole {
	return clusterRole(user.KubeScheduler, nil, append(eventsRule(),
		rule("create").groups(coordinationGroup).resources("leases"),
		rule("get", "update").groups(coordinationGroup).resources("leases").names("kube-scheduler"),
		rule(read...).groups(legacyGroup).resources("nodes"),
		rule("get", "list", "watch", "delete").groups(legacyGroup).resources("pods"),
		rule("create").groups(legacyGroup).resources("pods/binding", "bindings"),
		rule("patch", "update").groups(legacyGroup).resources("pods/status"),
		rule(read...).groups(legacyGroup).resources("replicationcontrollers", "services", "namespaces",
			"persistentvolumeclaims", "persistentvolumes"),
		rule(read...).groups(appsGroup).resources("replicasets", "statefulsets"),
		rule("create").groups(authenticationGrp).resources("tokenreviews"),
		rule("create").groups(authorizationGroup).resources("subjectaccessreviews"),
	)...)
}

// NodeRules is what any kubelet may do; the Node authorizer narrows the
// reads of secrets and configmaps to those its pods use, and
// NodeRestriction narrows the writes to its own Node, Lease and pods.
// Kubernetes: policy.go NodeRules.
func NodeRules() []api.PolicyRule { return rules(nodeRuleBuilders()...) }

func nodeRuleBuilders() []*ruleBuilder {
	return []*ruleBuilder{
		rule("create").groups(authenticationGrp).resources("tokenreviews"),
		rule("create").groups(authorizationGroup).resources("subjectaccessreviews", "localsubjectaccessreviews"),
		rule(read...).groups(legacyGroup).resources("services"),
		rule("create", "get", "list", "watch").groups(legacyGroup).resources("nodes"),
		rule("update", "patch").groups(legacyGroup).resources("nodes/status"),
		rule("update", "patch", "delete").groups(legacyGroup).resources("nodes"),
		rule("create", "update", "patch").groups(legacyGroup).resources("events"),
		rule(read...).groups(legacyGroup).resources("pods"),
		rule("create", "delete").groups(legacyGroup).resources("pods"),
		rule("update", "patch").groups(legacyGroup).resources("pods/status"),
		rule("create").groups(legacyGroup).resources("pods/eviction"),
		rule(read...).groups(legacyGroup).resources("secrets", "configmaps"),
		rule("get").groups(legacyGroup).resources("persistentvolumeclaims", "persistentvolumes"),
		rule("get").groups(legacyGroup).resources("endpoints"),
		rule("get", "create", "update", "patch", "delete").groups(coordinationGroup).resources("leases"),
		rule("create").groups(legacyGroup).resources("serviceaccounts/token"),
	}
}

// ClusterRoleBindings grants the bootstrap roles. system:node is bound to
// nobody, as in Kubernetes since 1.8: kubelets are authorized by the Node
// authorizer, which applies NodeRules itself.
func ClusterRoleBindings() []api.ClusterRoleBinding {
	return []api.ClusterRoleBinding{
		clusterRoleBinding("cluster-admin", group(user.SystemPrivilegedGroup)),
		clusterRoleBinding("system:discovery", group(user.AllAuthenticated)),
		clusterRoleBinding("system:basic-user", group(user.AllAuthenticated)),
		clusterRoleBinding("system:public-info-viewer", group(user.AllAuthenticated), group(user.AllUnauthenticated)),
		clusterRoleBinding("system:monitoring", group("system:monitoring")),
		clusterRoleBinding(user.KubeControllerManager, userSubject(user.KubeControllerManager)),
		clusterRoleBinding(user.KubeScheduler, userSubject(user.KubeScheduler)),
		clusterRoleBinding("system:node"),
	}
}
