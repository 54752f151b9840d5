package rbac_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The component and controller roles of the bootstrap policy, asked
// through SubjectAccessReviews: each identity holds what its component
// does and not more.
func TestBootstrapComponentRoles(t *testing.T) {
	sa := func(name string) string { return "system:serviceaccount:kube-system:" + name }
	for _, c := range []struct {
		user, verb, group, resource, subresource, namespace string
		allowed                                             bool
	}{
		{"system:kube-scheduler", "create", "", "pods", "binding", "ns", true},
		{"system:kube-scheduler", "patch", "", "pods", "status", "ns", true},
		{"system:kube-scheduler", "watch", "", "nodes", "", "", true},
		{"system:kube-scheduler", "delete", "", "nodes", "", "", false},
		{"system:kube-scheduler", "get", "", "secrets", "", "ns", false},
		{"system:kube-controller-manager", "list", "", "secrets", "", "", true},
		{"system:kube-controller-manager", "watch", "apps", "replicasets", "", "", true},
		{"system:kube-controller-manager", "create", "", "serviceaccounts", "", "ns", true},
		{"system:kube-controller-manager", "create", "", "pods", "", "ns", false},
		{sa("replicaset-controller"), "create", "", "pods", "", "ns", true},
		{sa("replicaset-controller"), "update", "apps", "replicasets", "status", "ns", true},
		{sa("replicaset-controller"), "create", "apps", "deployments", "", "ns", false},
		{sa("deployment-controller"), "create", "apps", "replicasets", "", "ns", true},
		{sa("job-controller"), "update", "batch", "jobs", "finalizers", "ns", true},
		{sa("generic-garbage-collector"), "delete", "apps", "replicasets", "", "ns", true},
		{sa("namespace-controller"), "deletecollection", "", "configmaps", "", "ns", true},
		{sa("clusterrole-aggregation-controller"), "escalate", "rbac.authorization.k8s.io", "clusterroles", "", "", true},
		{sa("root-ca-cert-publisher"), "update", "", "configmaps", "", "ns", true},
		{sa("labeler"), "update", "", "configmaps", "", "ns", true},
		{sa("labeler"), "create", "", "configmaps", "", "ns", false},
		{sa("labeler"), "create", "", "events", "", "ns", false},
	} {
		body := `{"spec":{"user":"` + c.user + `","resourceAttributes":{"verb":"` + c.verb + `","group":"` + c.group +
			`","resource":"` + c.resource + `","subresource":"` + c.subresource + `","namespace":"` + c.namespace + `"}}}`
		resp := srv.Admin(t, "POST", reviews+"subjectaccessreviews", body)
		if !assert.Equal(t, 201, resp.Code, resp.Body) {
			continue
		}
		assert.Equal(t, c.allowed, resp.Obj(t)["status"].(map[string]any)["allowed"], "%s %s %s/%s %s", c.user, c.verb, c.resource, c.subresource, c.group)
	}
}
