package cluster

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/authorization/bootstrappolicy"
	"kubeloop/client"
	"kubeloop/controllers"
)

// canI is `kubectl auth can-i VERB RESOURCE[/SUB] -n NS --as USER
// --as-group G...`: a SelfSubjectAccessReview sent by the admin
// impersonating user.
func canI(t *testing.T, c *Cluster, as []string, verb, group, resource, sub, ns string) bool {
	t.Helper()
	cfg := *c.Config
	cfg.Impersonate = client.ImpersonationConfig{UserName: as[0], Groups: as[1:]}
	cl, err := client.NewForConfig(&cfg)
	require.NoError(t, err)
	body, err := json.Marshal(&api.SelfSubjectAccessReview{
		TypeMeta: api.TypeMeta{APIVersion: "authorization.k8s.io/v1", Kind: "SelfSubjectAccessReview"},
		Spec: api.SelfSubjectAccessReviewSpec{ResourceAttributes: &api.ResourceAttributes{
			Namespace: ns, Verb: verb, Group: group, Resource: resource, Subresource: sub}},
	})
	require.NoError(t, err)
	data, err := cl.DoRaw(testCtx(t), "POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", nil, body)
	require.NoError(t, err)
	r := &api.SelfSubjectAccessReview{}
	require.NoError(t, json.Unmarshal(data, r))
	return r.Status.Allowed
}

type canIRow struct {
	as                        []string
	verb, group, resource, sa string // sa: the subresource
	ns                        string
	want                      bool
}

func (r canIRow) String() string {
	res := r.resource
	if r.sa != "" {
		res += "/" + r.sa
	}
	if r.group != "" {
		res += "." + r.group
	}
	return fmt.Sprintf("%s_%s_%s", r.as[0], r.verb, res)
}

const (
	kcm   = "system:kube-controller-manager"
	sched = "system:kube-scheduler"
	rsSA  = "system:serviceaccount:kube-system:replicaset-controller"
	lblSA = "system:serviceaccount:kube-system:labeler"
	gcSA  = "system:serviceaccount:kube-system:generic-garbage-collector"
)

var node1 = []string{"system:node:node-1", "system:nodes"}

// What each component identity may do under the default Node,RBAC
// authorizer: its bootstrap role and nothing more. Rows common to both
// controller-manager modes.
var componentRows = []canIRow{
	{[]string{sched}, "create", "", "pods", "binding", "default", true},
	{[]string{sched}, "patch", "", "pods", "status", "default", true},
	{[]string{sched}, "list", "", "nodes", "", "", true},
	{[]string{sched}, "create", "", "pods", "", "default", false},
	{[]string{sched}, "update", "", "nodes", "", "", false},
	{[]string{sched}, "get", "", "secrets", "", "default", false},
	{[]string{sched}, "update", "coordination.k8s.io", "leases", "", "kube-system", false}, // only its own lease, by name
	{node1, "create", "", "nodes", "", "", true},
	{node1, "update", "", "pods", "status", "default", true},
	{node1, "create", "coordination.k8s.io", "leases", "", "kube-node-lease", true},
	{node1, "list", "", "secrets", "", "default", false}, // the Node authorizer: only its pods' secrets, by name
	{node1, "create", "apps", "replicasets", "", "default", false},
	{node1, "delete", "", "namespaces", "", "", false},
	{[]string{rsSA}, "create", "", "pods", "", "default", true},
	{[]string{rsSA}, "update", "apps", "replicasets", "status", "default", true},
	{[]string{rsSA}, "create", "", "events", "", "default", true},
	{[]string{rsSA}, "update", "", "pods", "", "default", false},
	{[]string{rsSA}, "create", "apps", "deployments", "", "default", false},
	{[]string{rsSA}, "get", "", "secrets", "", "default", false},
	{[]string{lblSA}, "update", "", "configmaps", "", "default", true},
	{[]string{lblSA}, "watch", "", "configmaps", "", "", true},
	{[]string{lblSA}, "create", "", "configmaps", "", "default", false},
	{[]string{lblSA}, "delete", "", "configmaps", "", "default", false},
	{[]string{lblSA}, "create", "", "events", "", "default", false},
	{[]string{gcSA}, "delete", "apps", "replicasets", "", "default", true},
	{[]string{gcSA}, "create", "", "pods", "", "default", false},
	{[]string{kcm}, "list", "apps", "deployments", "", "", true}, // its informers
	{[]string{kcm}, "create", "", "serviceaccounts", "", "kube-system", true},
	{[]string{kcm}, "create", "", "serviceaccounts", "token", "kube-system", true},
	{[]string{"alice"}, "get", "", "configmaps", "", "default", false},
}

func runCanI(t *testing.T, c *Cluster, rows []canIRow) {
	for _, r := range rows {
		t.Run(r.String(), func(t *testing.T) {
			assert.Equal(t, r.want, canI(t, c, r.as, r.verb, r.group, r.resource, r.sa, r.ns))
		})
	}
}

// The default cluster authorizes with Node,RBAC. The controller manager
// runs every controller as itself, so it holds the controller roles too
// (the grants); with UseServiceAccountCredentials it holds only
// system:kube-controller-manager, and each controller its own role.
func TestComponentIdentitiesHoldOnlyTheirRoles(t *testing.T) {
	t.Run("own credential", func(t *testing.T) {
		c := startCluster(t, Options{})
		runCanI(t, c, append(componentRows,
			canIRow{[]string{kcm}, "create", "", "pods", "", "default", true},
			canIRow{[]string{kcm}, "update", "", "configmaps", "", "default", true},
			canIRow{[]string{kcm}, "update", "", "secrets", "", "default", true}, // its own role: token secrets
			canIRow{[]string{kcm}, "create", "rbac.authorization.k8s.io", "clusterrolebindings", "", "", false},
		))
	})
	t.Run("service account credentials", func(t *testing.T) {
		c := startCluster(t, Options{UseServiceAccountCredentials: true})
		runCanI(t, c, append(componentRows,
			canIRow{[]string{kcm}, "create", "", "pods", "", "default", false},
			canIRow{[]string{kcm}, "update", "", "configmaps", "", "default", false},
			canIRow{[]string{kcm}, "delete", "apps", "replicasets", "", "default", false},
		))
	})
}

// A data dir that once ran a controller manager with its own credential
// loses those grants when it restarts with service account credentials.
func TestServiceAccountCredentialsRemoveTheControllerManagersGrants(t *testing.T) {
	dir := t.TempDir()
	first := startCluster(t, Options{DataDir: dir})
	require.True(t, canI(t, first, []string{kcm}, "create", "", "pods", "", "default"))
	first.Stop()
	second := startCluster(t, Options{DataDir: dir, UseServiceAccountCredentials: true})
	assert.False(t, canI(t, second, []string{kcm}, "create", "", "pods", "", "default"))
	l, err := client.For[*api.ClusterRoleBinding](second.Client).List(testCtx(t), client.ListOptions{LabelSelector: grantLabel})
	require.NoError(t, err)
	assert.Empty(t, l.Items)
}

// Start writes a kubeconfig per component whose certificate names the
// component, and it is accepted as that user.
func TestComponentKubeconfigsAuthenticateAsTheirComponent(t *testing.T) {
	c := startCluster(t, Options{})
	dir := filepath.Dir(c.KubeconfigPath)
	nodeFile, err := WriteKubeletKubeconfig(dir, "node-7")
	require.NoError(t, err)
	for file, want := range map[string]struct {
		user   string
		groups []string
	}{
		ControllerManagerKubeconfig: {kcm, []string{"system:authenticated"}},
		SchedulerKubeconfig:         {sched, []string{"system:authenticated"}},
		filepath.Base(nodeFile):     {"system:node:node-7", []string{"system:nodes", "system:authenticated"}},
	} {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join(dir, file)
			info, err := os.Stat(path)
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
			cfg, err := client.ConfigFromKubeconfig(path, "")
			require.NoError(t, err)
			cl, err := client.NewForConfig(cfg)
			require.NoError(t, err)
			me, err := whoami(t, cl)
			require.NoError(t, err)
			assert.Equal(t, want.user, me.Status.UserInfo.Username)
			assert.Equal(t, want.groups, me.Status.UserInfo.Groups)
		})
	}
	// The scheduler's kubeconfig is not the admin's.
	cfg, err := client.ConfigFromKubeconfig(filepath.Join(dir, SchedulerKubeconfig), "")
	require.NoError(t, err)
	cl, err := client.NewForConfig(cfg)
	require.NoError(t, err)
	_, err = client.For[*api.Secret](cl).Namespace("default").List(testCtx(t), client.ListOptions{})
	require.Error(t, err)
	assert.Equal(t, `secrets is forbidden: User "system:kube-scheduler" cannot list resource "secrets" in API group "" in the namespace "default"`, err.Error())
}

// Every controller the manager can run has a ServiceAccount name, and the
// bootstrap policy a role for exactly that account: the two tables live in
// controllers and in the apiserver's policy, and must not drift apart.
func TestEveryControllerAccountHasItsBootstrapRole(t *testing.T) {
	roles := map[string]bool{}
	for _, r := range bootstrappolicy.ControllerRoles() {
		roles[r.Name] = true
	}
	accounts := controllers.ServiceAccountNames()
	for name := range controllers.KnownControllers() {
		account, ok := accounts[name]
		if assert.True(t, ok, "controller %s has no service account", name) {
			assert.True(t, roles["system:controller:"+account], "no role system:controller:%s for controller %s", account, name)
		}
	}
	assert.Len(t, roles, len(accounts), "a role for every account and no other")
}
