package full

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/client"
	"kubeloop/cluster"
)

// logBuffer keeps every log line of a test, from the apiserver and from
// the components (which log to slog.Default).
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) matches(re *regexp.Regexp) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return re.Match(l.buf.Bytes())
}

// captureLogs sends slog.Default to a buffer for the rest of the test
// (the test must not be parallel) and returns a logger for the apiserver.
func captureLogs(t *testing.T) (*logBuffer, *slog.Logger) {
	l := &logBuffer{}
	log := slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelInfo}))
	prev := slog.Default()
	slog.SetDefault(log)
	t.Cleanup(func() { slog.SetDefault(prev) })
	return l, log
}

// The whole cluster under Node,RBAC with an identity per component and
// --use-service-account-credentials: three kubelets as system:node:<name>,
// the scheduler as system:kube-scheduler, and each controller as its own
// ServiceAccount, the controller manager itself holding only
// system:kube-controller-manager (which may not create pods). A
// ReplicaSet still scales to Running pods; the apiserver's write log
// names who wrote each; and a controller whose role binding is removed
// is refused (403 in its log), keeps running, and recovers when the
// binding is back.
func TestServiceAccountCredentialsRunTheSpineUnderNodeRBAC(t *testing.T) {
	logs, log := captureLogs(t)
	t.Setenv("KUBELOOP_CACHE_MUTATION_DETECTOR", "true")
	c, err := Start(testCtx(t), cluster.Options{Logger: log, UseServiceAccountCredentials: true},
		Options{Nodes: 3, Kubelet: fastKubelet()})
	require.NoError(t, err)
	t.Cleanup(c.Stop)
	waitNodesReady(t, c, NodeName(0), NodeName(1), NodeName(2))
	ns := newNamespace(t, c)
	createReplicaSet(t, c, replicaSet(ns, "web", 3, "100m", "64Mi"))
	require.Eventually(t, func() bool {
		return sum(readyPodsByNode(listPods(t, c, ns, "app=web"))) == 3
	}, waitFor, tick, "3 pods Running and Ready")

	wrote := func(verb, resource, who string) *regexp.Regexp {
		return regexp.MustCompile(`msg=write component=apiserver verb=` + regexp.QuoteMeta(verb) + ` resource=` + regexp.QuoteMeta(resource) +
			` key=` + regexp.QuoteMeta(ns) + `/web-\S+ rv=\S+ code=20[01] user=` + regexp.QuoteMeta(who))
	}
	for _, w := range []struct{ verb, resource, who string }{
		{"create", "pods", "system:serviceaccount:kube-system:replicaset-controller"},
		{"create/binding", "pods", user.KubeScheduler},
		{"update/status", "pods", "system:node:node-"},
	} {
		assert.True(t, logs.matches(wrote(w.verb, w.resource, w.who)), "a %s of %s by %s is in the write log", w.verb, w.resource, w.who)
	}
	assert.False(t, logs.matches(regexp.MustCompile(`msg=write component=apiserver verb=create resource=pods key=\S+ rv=\S+ code=201 user=system:kube-controller-manager`)),
		"the controller manager's own identity created no pod")

	// The labeler, with the tutorial's role and nothing else, labels.
	cms := client.For[*api.ConfigMap](c.Client).Namespace(ns)
	_, err = cms.Create(testCtx(t), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "hello"}}, client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		cm, err := cms.Get(testCtx(t), "hello", client.GetOptions{})
		return err == nil && cm.Labels["managed-by"] == "configmap-controller"
	}, waitFor, tick, "the labeler labels as its ServiceAccount")
	assert.True(t, logs.matches(regexp.MustCompile(`msg=write component=apiserver verb=update resource=configmaps key=`+
		regexp.QuoteMeta(ns)+`/hello rv=\d+ code=200 user=system:serviceaccount:kube-system:labeler`)))

	// Take the ReplicaSet controller's role away.
	bindings := client.For[*api.ClusterRoleBinding](c.Client)
	ctx := testCtx(t)
	const name = "system:controller:replicaset-controller"
	saved, err := bindings.Get(ctx, name, client.GetOptions{})
	require.NoError(t, err)
	require.NoError(t, bindings.Delete(ctx, name, api.DeleteOptions{}))
	require.Eventually(t, func() bool { return !saMayCreatePods(t, c, ns) }, waitFor, tick,
		"the policy cache has the binding gone")
	scale(t, c, ns, "web", 4)
	refused := regexp.MustCompile(`msg="sync failed, requeueing" component=replicaset-controller key=` + regexp.QuoteMeta(ns) +
		`/web err="[^\n]* is forbidden: User \\"system:serviceaccount:kube-system:replicaset-controller\\" cannot `)
	require.Eventually(t, func() bool { return logs.matches(refused) }, waitFor, tick, "the refusal is in the controller's log")
	assert.Len(t, listPods(t, c, ns, "app=web"), 3, "no pod was created without the role")

	saved.ResourceVersion, saved.UID = "", ""
	_, err = bindings.Create(ctx, saved, client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		return sum(readyPodsByNode(listPods(t, c, ns, "app=web"))) == 4
	}, waitFor, tick, "with the role back the controller (still running) creates the fourth pod")

	// Its ServiceAccount deleted, its token is refused (401); the
	// controller manager makes the account again and a new token.
	sas := client.For[*api.ServiceAccount](c.Client).Namespace("kube-system")
	old, err := sas.Get(ctx, "replicaset-controller", client.GetOptions{})
	require.NoError(t, err)
	require.NoError(t, sas.Delete(ctx, "replicaset-controller", api.DeleteOptions{}))
	require.Eventually(t, func() bool {
		// The watch cache, where the token authenticator looks, has it gone.
		_, err := sas.Get(ctx, "replicaset-controller", client.GetOptions{ResourceVersion: "0"})
		return api.IsNotFound(err)
	}, waitFor, tick)
	scale(t, c, ns, "web", 5)
	require.Eventually(t, func() bool {
		return sum(readyPodsByNode(listPods(t, c, ns, "app=web"))) == 5
	}, waitFor, tick, "a new account, a new token, the fifth pod")
	var again *api.ServiceAccount
	require.Eventually(t, func() bool {
		again, err = sas.Get(ctx, "replicaset-controller", client.GetOptions{})
		return err == nil
	}, waitFor, tick, "the controller manager made the account again")
	assert.NotEqual(t, old.UID, again.UID, "the account was made anew")
	assert.True(t, logs.matches(regexp.MustCompile(`msg="unable to authenticate the request"[^\n]*replicaset-controller`)),
		"the old token was refused first")
}

// saMayCreatePods asks, as `kubectl auth can-i create pods --as
// system:serviceaccount:kube-system:replicaset-controller` does, whether
// the ReplicaSet controller's account may create pods in ns.
func saMayCreatePods(t *testing.T, c *cluster.Cluster, ns string) bool {
	t.Helper()
	cfg := *c.Config
	cfg.Impersonate = client.ImpersonationConfig{UserName: "system:serviceaccount:kube-system:replicaset-controller"}
	cl, err := client.NewForConfig(&cfg)
	require.NoError(t, err)
	data, err := cl.DoRaw(testCtx(t), "POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", nil,
		fmt.Appendf(nil, `{"spec":{"resourceAttributes":{"namespace":%q,"verb":"create","resource":"pods"}}}`, ns))
	require.NoError(t, err)
	r := &api.SelfSubjectAccessReview{}
	require.NoError(t, json.Unmarshal(data, r))
	return r.Status.Allowed
}

func scale(t *testing.T, c *cluster.Cluster, ns, name string, replicas int32) {
	t.Helper()
	_, err := client.For[*api.ReplicaSet](c.Client).Namespace(ns).Patch(testCtx(t), name, client.MergePatchType,
		fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, replicas), client.PatchOptions{})
	require.NoError(t, err)
}

// Under the default authorizer and admission a kubelet may change its own
// Node and the pods bound to it, and not another node's (NodeRestriction),
// nor read a secret no pod of its uses (the Node authorizer).
func TestAKubeletCannotTouchAnotherNodesObjects(t *testing.T) {
	c := startCluster(t, Options{Nodes: 2, Kubelet: fastKubelet()})
	ns := newNamespace(t, c)
	// Requests large enough for the least-allocated score to tell the
	// nodes apart: at 10m of 4 CPUs both score 99 and the scheduler picks
	// among equals at random, so all four pods landed on one node one run
	// in eight (our scheduler has no topology spread to even them out).
	createReplicaSet(t, c, replicaSet(ns, "web", 4, "100m", "64Mi"))
	var pods []*api.Pod
	require.Eventually(t, func() bool {
		pods = listPods(t, c, ns, "app=web")
		byNode := readyPodsByNode(pods)
		return sum(byNode) == 4 && byNode[NodeName(1)] > 0
	}, waitFor, tick, "pods Running on both nodes")
	var other *api.Pod
	for _, p := range pods {
		if p.Spec.NodeName == NodeName(1) {
			other = p
		}
	}
	_, err := client.For[*api.Secret](c.Client).Namespace(ns).Create(testCtx(t),
		&api.Secret{ObjectMeta: api.ObjectMeta{Name: "unused"}}, client.CreateOptions{})
	require.NoError(t, err)

	kl, err := c.NewComponentClient("intruder", cluster.NodeUser(NodeName(0)), user.NodesGroup)
	require.NoError(t, err)
	ctx := testCtx(t)
	nodes := client.For[*api.Node](kl)
	mine, err := nodes.Get(ctx, NodeName(0), client.GetOptions{})
	require.NoError(t, err)
	_, err = nodes.UpdateStatus(ctx, mine, client.UpdateOptions{})
	require.NoError(t, err, "its own Node")

	theirs, err := nodes.Get(ctx, NodeName(1), client.GetOptions{})
	require.NoError(t, err)
	if theirs.Labels == nil {
		theirs.Labels = map[string]string{}
	}
	theirs.Labels["stolen"] = "yes"
	for what, err := range map[string]error{
		"update another node": func() error { _, err := nodes.Update(ctx, theirs, client.UpdateOptions{}); return err }(),
		"update its status":   func() error { _, err := nodes.UpdateStatus(ctx, theirs, client.UpdateOptions{}); return err }(),
		"delete another node": nodes.Delete(ctx, NodeName(1), api.DeleteOptions{}),
		"update another's pod": func() error {
			_, err := client.For[*api.Pod](kl).Namespace(ns).UpdateStatus(ctx, other, client.UpdateOptions{})
			return err
		}(),
		"delete another's pod": client.For[*api.Pod](kl).Namespace(ns).Delete(ctx, other.Name, api.DeleteOptions{}),
		"read an unused secret": func() error {
			_, err := client.For[*api.Secret](kl).Namespace(ns).Get(ctx, "unused", client.GetOptions{})
			return err
		}(),
		"create a pod elsewhere": func() error {
			_, err := client.For[*api.Pod](kl).Namespace(ns).Create(ctx, podOn(NodeName(1)), client.CreateOptions{})
			return err
		}(),
	} {
		assert.True(t, api.IsForbidden(err), "%s: %v", what, err)
	}
	got, err := client.For[*api.Node](c.Client).Get(ctx, NodeName(1), client.GetOptions{})
	require.NoError(t, err)
	assert.NotContains(t, got.Labels, "stolen")
	_, err = client.For[*api.Pod](c.Client).Namespace(ns).Get(ctx, other.Name, client.GetOptions{})
	assert.NoError(t, err, "the other node's pod is still there")
}

func podOn(node string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "mirror"},
		Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
}
