package printers

import (
	"strings"
	"time"

	"kubeloop/api"
)

// The columns of the RBAC kinds, as kube-apiserver v1.37.2 serves them:
// pkg/printers/internalversion/printers.go (AddHandlers; printRole,
// printClusterRole, printRoleBinding, printClusterRoleBinding) and
// pkg/apis/rbac/helpers.go (SubjectsStrings). Roles show a creation time,
// not an age; bindings show the role and, wide, who is bound.

func rbacPrinter(info *api.ResourceInfo) tablePrinter {
	if info.Kind == "Role" || info.Kind == "ClusterRole" {
		return tablePrinter{columns: []tableColumn{
			nameColumn(),
			col("Created At", "date", "When the role was created (RFC 3339, UTC).", 0),
		}, cells: roleCells}
	}
	return tablePrinter{columns: []tableColumn{
		nameColumn(),
		col("Role", "string", "roleRef: the kind and name of the role granted.", 0),
		ageColumn(),
		col("Users", "string", "The users the binding grants the role to.", 1),
		col("Groups", "string", "The groups the binding grants the role to.", 1),
		col("ServiceAccounts", "string", "The service accounts (namespace:name) the binding grants the role to.", 1),
	}, cells: bindingCells}
}

func roleCells(obj api.Object, _ time.Time) []any {
	m := obj.GetObjectMeta()
	return []any{m.Name, m.CreationTimestamp.UTC().Format(time.RFC3339)}
}

func bindingCells(obj api.Object, now time.Time) []any {
	var (
		ref      api.RoleRef
		subjects []api.Subject
	)
	switch b := obj.(type) {
	case *api.RoleBinding:
		ref, subjects = b.RoleRef, b.Subjects
	case *api.ClusterRoleBinding:
		ref, subjects = b.RoleRef, b.Subjects
	}
	var users, groups, sas []string
	for _, s := range subjects {
		switch s.Kind {
		case api.UserKind:
			users = append(users, s.Name)
		case api.GroupKind:
			groups = append(groups, s.Name)
		case api.ServiceAccountKind:
			sas = append(sas, s.Namespace+":"+s.Name)
		}
	}
	m := obj.GetObjectMeta()
	return []any{
		m.Name, ref.Kind + "/" + ref.Name, api.HumanAge(m.CreationTimestamp, now),
		strings.Join(users, ", "), strings.Join(groups, ", "), strings.Join(sas, ", "),
	}
}
