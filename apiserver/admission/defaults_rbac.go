package admission

import "kubeloop/api"

// The RBAC defaults: pkg/apis/rbac/v1/defaults.go (SetDefaults_RoleBinding,
// SetDefaults_ClusterRoleBinding, SetDefaults_Subject), v1.37.2. Users and
// groups are RBAC names, so their subjects default to the RBAC group; a
// ServiceAccount subject belongs to the core group ("").

func setDefaultsRoleRef(ref *api.RoleRef) {
	if ref.APIGroup == "" {
		ref.APIGroup = api.RBACGroupName
	}
}

func setDefaultsSubjects(subjects []api.Subject) {
	for i := range subjects {
		s := &subjects[i]
		if s.APIGroup == "" && (s.Kind == api.UserKind || s.Kind == api.GroupKind) {
			s.APIGroup = api.RBACGroupName
		}
	}
}
