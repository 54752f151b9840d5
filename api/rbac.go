package api

// The RBAC kinds (rbac.authorization.k8s.io/v1): a Role or ClusterRole is a
// set of PolicyRules; a RoleBinding or ClusterRoleBinding grants one role to
// a list of subjects. Permissions are purely additive: there are no deny
// rules, so a request is allowed when any rule reached through any binding
// covers it.

// RBACGroupName is the API group of the RBAC kinds.
const RBACGroupName = "rbac.authorization.k8s.io"

// Wildcards and subject kinds, with Kubernetes' names.
const (
	APIGroupAll    = "*"
	ResourceAll    = "*"
	VerbAll        = "*"
	NonResourceAll = "*"

	GroupKind          = "Group"
	ServiceAccountKind = "ServiceAccount"
	UserKind           = "User"

	// AutoUpdateAnnotationKey on a bootstrap role or binding set to "false"
	// stops the apiserver from reconciling it at start.
	AutoUpdateAnnotationKey = "rbac.authorization.kubernetes.io/autoupdate"
)

// PolicyRule is one grant: these verbs on these resources (of these API
// groups, optionally only these names), or these verbs on these
// non-resource URLs. "*" matches anything in any list.
type PolicyRule struct {
	// The verbs allowed: get, list, watch, create, update, patch, delete,
	// deletecollection, or "*" for all.
	Verbs []string `json:"verbs" protobuf:"bytes,1,rep,name=verbs"`
	// The API groups of the resources ("" is the core group).
	APIGroups []string `json:"apiGroups,omitempty" protobuf:"bytes,2,rep,name=apiGroups"`
	// The resources, "resource/subresource" for a subresource, "*" for all.
	Resources []string `json:"resources,omitempty" protobuf:"bytes,3,rep,name=resources"`
	// If set, only objects with these names. It cannot restrict create,
	// list, watch or deletecollection, whose requests carry no name.
	ResourceNames []string `json:"resourceNames,omitempty" protobuf:"bytes,4,rep,name=resourceNames"`
	// Paths outside the resource API (/healthz, /version, /api); a trailing
	// "*" matches any suffix. Only in ClusterRoles bound cluster-wide.
	NonResourceURLs []string `json:"nonResourceURLs,omitempty" protobuf:"bytes,5,rep,name=nonResourceURLs"`
}

// Subject is who a binding grants its role to: a User, a Group (both
// names the authenticator produced) or a ServiceAccount (in a namespace).
type Subject struct {
	// "User", "Group" or "ServiceAccount".
	Kind string `json:"kind" protobuf:"bytes,1,opt,name=kind"`
	// "" for ServiceAccount, "rbac.authorization.k8s.io" for User and Group
	// (defaulted).
	APIGroup string `json:"apiGroup,omitempty" protobuf:"bytes,2,opt,name=apiGroup"`
	// The user, group or account name.
	Name string `json:"name" protobuf:"bytes,3,opt,name=name"`
	// The ServiceAccount's namespace; empty for users and groups.
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,4,opt,name=namespace"`
}

// RoleRef names the role a binding grants. It cannot change after creation:
// delete and recreate the binding instead.
type RoleRef struct {
	// Always "rbac.authorization.k8s.io".
	APIGroup string `json:"apiGroup" protobuf:"bytes,1,opt,name=apiGroup"`
	// "Role" (only in a RoleBinding) or "ClusterRole".
	Kind string `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	// The role's name (a Role in the binding's namespace).
	Name string `json:"name" protobuf:"bytes,3,opt,name=name"`
}

// Role is a namespaced set of rules; only a RoleBinding in the same
// namespace can grant it.
type Role struct {
	// Kind "Role" and apiVersion "rbac.authorization.k8s.io/v1".
	TypeMeta `json:",inline"`
	// Standard object metadata.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// What the role allows.
	Rules []PolicyRule `json:"rules" protobuf:"bytes,2,rep,name=rules"`
}

// RoleList is a list of Roles.
type RoleList = List[Role, *Role]

// ClusterRole is a cluster-wide set of rules: granted in one namespace by a
// RoleBinding or everywhere by a ClusterRoleBinding. Its rules may also be
// the union of other ClusterRoles' (AggregationRule).
type ClusterRole struct {
	// Kind "ClusterRole" and apiVersion "rbac.authorization.k8s.io/v1".
	TypeMeta `json:",inline"`
	// Standard object metadata.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// What the role allows; with an aggregationRule the controller owns
	// this list and overwrites any change.
	Rules []PolicyRule `json:"rules" protobuf:"bytes,2,rep,name=rules"`
	// If set, the clusterrole-aggregation controller fills rules with the
	// rules of every ClusterRole some selector matches.
	AggregationRule *AggregationRule `json:"aggregationRule,omitempty" protobuf:"bytes,3,opt,name=aggregationRule"`
}

// ClusterRoleList is a list of ClusterRoles.
type ClusterRoleList = List[ClusterRole, *ClusterRole]

// AggregationRule says which ClusterRoles to combine: those whose labels
// match any of the selectors.
type AggregationRule struct {
	// Selectors of the ClusterRoles whose rules are combined (ORed).
	ClusterRoleSelectors []LabelSelector `json:"clusterRoleSelectors,omitempty" protobuf:"bytes,1,rep,name=clusterRoleSelectors"`
}

// RoleBinding grants a Role of its namespace, or a ClusterRole limited to
// its namespace, to subjects.
type RoleBinding struct {
	// Kind "RoleBinding" and apiVersion "rbac.authorization.k8s.io/v1".
	TypeMeta `json:",inline"`
	// Standard object metadata.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Who is granted the role.
	Subjects []Subject `json:"subjects,omitempty" protobuf:"bytes,2,rep,name=subjects"`
	// The role granted; immutable.
	RoleRef RoleRef `json:"roleRef" protobuf:"bytes,3,opt,name=roleRef" structType:"atomic"`
}

// RoleBindingList is a list of RoleBindings.
type RoleBindingList = List[RoleBinding, *RoleBinding]

// ClusterRoleBinding grants a ClusterRole in every namespace and on
// cluster-scoped resources and non-resource URLs.
type ClusterRoleBinding struct {
	// Kind "ClusterRoleBinding" and apiVersion "rbac.authorization.k8s.io/v1".
	TypeMeta `json:",inline"`
	// Standard object metadata.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Who is granted the role.
	Subjects []Subject `json:"subjects,omitempty" protobuf:"bytes,2,rep,name=subjects"`
	// The ClusterRole granted; immutable.
	RoleRef RoleRef `json:"roleRef" protobuf:"bytes,3,opt,name=roleRef" structType:"atomic"`
}

// ClusterRoleBindingList is a list of ClusterRoleBindings.
type ClusterRoleBindingList = List[ClusterRoleBinding, *ClusterRoleBinding]
