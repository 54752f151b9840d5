package conformance

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/client"
	"kubeloop/cluster"
)

// rbacCluster is an API-only kubeloop cluster over the suite's etcd,
// authorizing as every cluster does by default: Node,RBAC. It returns the admin's kubeconfig and a function that
// writes one for any other user (a client certificate from the cluster's
// CA, CN the user).
func rbacCluster(t *testing.T) (string, func(user string) string) {
	t.Helper()
	c, err := cluster.Start(context.Background(), cluster.Options{
		EtcdEndpoints: etcd.Endpoints(),
		Logger:        slog.New(slog.DiscardHandler),
	})
	require.NoError(t, err)
	t.Cleanup(c.Stop)
	return c.KubeconfigPath, func(user string) string {
		cfg, err := c.ConfigFor(user)
		require.NoError(t, err)
		path := filepath.Join(t.TempDir(), user+".kubeconfig")
		require.NoError(t, client.WriteKubeconfig(path, cfg))
		return path
	}
}

// TestKubectlAuthCanI: the real kubectl, as the admin and as users with
// certificates of their own, asks the access reviews (`auth can-i`,
// `--list`) and prints Kubernetes' 403 for a refused request.
func TestKubectlAuthCanI(t *testing.T) {
	adminConfig, kubeconfigFor := rbacCluster(t)
	aliceConfig, bobConfig := kubeconfigFor("alice"), kubeconfigFor("bob")
	for _, bin := range requireKubectls(t) {
		t.Run(bin.version, func(t *testing.T) {
			ns := "can-i-" + strings.ReplaceAll(bin.version, ".", "-")
			k := &kubectl{t: t, bin: bin, kubeconfig: adminConfig}
			k.ok("create", "namespace", ns)
			k.namespace = ns
			alice := &kubectl{t: t, bin: bin, kubeconfig: aliceConfig, namespace: ns}
			bob := &kubectl{t: t, bin: bin, kubeconfig: bobConfig, namespace: ns}
			k.ok("create", "role", "pod-reader", "--verb=get,list", "--resource=pods")
			k.ok("create", "rolebinding", "alice-reads", "--role=pod-reader", "--user=alice")
			require.Eventually(t, func() bool {
				r := alice.run("auth", "can-i", "list", "pods")
				return r.code == 0
			}, 20*time.Second, 100*time.Millisecond, "the binding reaches the policy cache")

			assert.Equal(t, "yes\n", alice.ok("auth", "can-i", "get", "pods"))
			r := alice.run("auth", "can-i", "delete", "pods")
			assert.Equal(t, 1, r.code)
			assert.Equal(t, "no\n", r.stdout)
			r = alice.run("auth", "can-i", "list", "secrets")
			assert.Equal(t, "no\n", r.stdout)
			assert.Equal(t, "yes\n", k.ok("auth", "can-i", "delete", "nodes"), "system:masters")

			list := alice.ok("auth", "can-i", "--list")
			assert.Regexp(t, `(?m)^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$`, list)
			assert.Regexp(t, `(?m)^pods\s+\[\]\s+\[\]\s+\[get list\]$`, list)
			assert.Regexp(t, `(?m)^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$`, list)
			assert.Regexp(t, `(?m)^\s+\[/version\]\s+\[\]\s+\[get\]$`, list)

			out := bob.fails("get", "pods")
			assert.Equal(t, `Error from server (Forbidden): pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "`+ns+`"`+"\n", out)
			out = alice.fails("create", "role", "too-much", "--verb=delete", "--resource=pods")
			assert.Contains(t, out, `Error from server (Forbidden): roles.rbac.authorization.k8s.io is forbidden: User "alice" cannot create resource "roles"`)
		})
	}
}

// TestKubectlAuthCanIAsComponents: the real kubectl's `auth can-i --as`
// (impersonation, then a SelfSubjectAccessReview) for the component
// identities of a cluster started with the defaults (Node,RBAC): each
// holds its bootstrap role and nothing more.
func TestKubectlAuthCanIAsComponents(t *testing.T) {
	adminConfig, _ := rbacCluster(t)
	bin := requireKubectls(t)[0]
	k := &kubectl{t: t, bin: bin, kubeconfig: adminConfig, namespace: "default"}
	const rs = "system:serviceaccount:kube-system:replicaset-controller"
	for _, row := range []struct {
		as   []string
		args []string
		want string
	}{
		{[]string{rs}, []string{"create", "pods"}, "yes"},
		{[]string{rs}, []string{"update", "replicasets/status", "--subresource=status"}, "yes"},
		{[]string{rs}, []string{"update", "pods"}, "no"},
		{[]string{rs}, []string{"list", "secrets"}, "no"},
		{[]string{"system:serviceaccount:kube-system:labeler"}, []string{"update", "configmaps"}, "yes"},
		{[]string{"system:serviceaccount:kube-system:labeler"}, []string{"create", "configmaps"}, "no"},
		{[]string{"system:serviceaccount:kube-system:labeler"}, []string{"create", "events"}, "no"},
		{[]string{"system:kube-scheduler"}, []string{"create", "pods", "--subresource=binding"}, "yes"},
		{[]string{"system:kube-scheduler"}, []string{"create", "pods"}, "no"},
		{[]string{"system:kube-controller-manager"}, []string{"list", "deployments.apps", "-A"}, "yes"},
		{[]string{"system:node:node-1", "system:nodes"}, []string{"create", "nodes"}, "yes"},
		// The Node authorizer's reason follows its no, as in Kubernetes.
		{[]string{"system:node:node-1", "system:nodes"}, []string{"list", "secrets"}, "no - can only get individual resources of this type"},
		{[]string{"system:node:node-1", "system:nodes"}, []string{"delete", "namespaces"}, "no"},
	} {
		args := append([]string{"auth", "can-i"}, row.args...)
		args = append(args, "--as", row.as[0])
		for _, g := range row.as[1:] {
			args = append(args, "--as-group", g)
		}
		r := k.run(args...)
		assert.Equal(t, row.want+"\n", r.stdout, "kubectl %s", strings.Join(args, " "))
	}
}
