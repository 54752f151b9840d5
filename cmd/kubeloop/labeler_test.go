package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

// startUp runs `kubeloop up` with one node and extra flags, waits until it
// is ready and returns its kubeconfig.
func startUp(t *testing.T, extra ...string) (*process, string) {
	t.Helper()
	dataDir := filepath.Join(t.TempDir(), "d")
	args := append([]string{"up", "--data-dir", dataDir, "--listen", freeAddr(t), "--nodes", "1"}, extra...)
	up := start(t, "kubeloop up", args...)
	up.waitReady(t)
	return up, filepath.Join(dataDir, "kubeconfig")
}

// kubectlAs runs the real kubectl against kubeconfig, as a user would in
// another terminal, and returns what it printed.
func kubectlAs(t *testing.T, kubectl, kubeconfig string, args ...string) string {
	t.Helper()
	cmd := exec.Command(kubectl, append([]string{"--cache-dir", t.TempDir()}, args...)...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "kubectl %s:\n%s", strings.Join(args, " "), out)
	return string(out)
}

func requireKubectl(t *testing.T) string {
	t.Helper()
	kubectl := findKubectl()
	if kubectl == "" {
		t.Skip("SKIPPING: no kubectl found ($KUBECTL, kubectl on PATH): the tutorial's steps cannot run")
	}
	return kubectl
}

// The tutorial ("The Control Loop: Kubernetes' Hidden Superpower", "Running
// it"), step by step against `make run`'s cluster: no flags, the default
// namespace, the real kubectl.
func TestTutorialLabelerStepsWorkAsWritten(t *testing.T) {
	kubectl := requireKubectl(t)
	up, kubeconfig := startUp(t)

	out := kubectlAs(t, kubectl, kubeconfig, "create", "configmap", "hello", "--from-literal=greeting=world")
	require.Contains(t, out, "configmap/hello created")
	labelled := regexp.MustCompile(`(?m)^NAME\s+DATA\s+AGE\s+LABELS\nhello\s+1\s+\d+s\s+managed-by=configmap-controller$`)
	require.Eventually(t, func() bool {
		return labelled.MatchString(kubectlAs(t, kubectl, kubeconfig, "get", "configmap", "hello", "--show-labels"))
	}, deadline, tick, "the label appears")

	out = kubectlAs(t, kubectl, kubeconfig, "label", "configmap", "hello", "managed-by-")
	require.Contains(t, out, "configmap/hello unlabeled")
	require.Eventually(t, func() bool {
		return labelled.MatchString(kubectlAs(t, kubectl, kubeconfig, "get", "configmap", "hello", "--show-labels"))
	}, deadline, tick, "the controller puts it right back")
	require.Equal(t, 0, up.terminate(t))
}

// startedControllers are the controllers the manager logged it started.
func startedControllers(p *process) []string {
	var out []string
	for _, m := range regexp.MustCompile(`msg="starting controller" component=controller-manager controller=(\S+)`).FindAllStringSubmatch(p.log(), -1) {
		out = append(out, m[1])
	}
	return out
}

func TestUpWithoutTheLabelerLeavesConfigMapsUnlabelled(t *testing.T) {
	up, kubeconfig := startUp(t, "--controllers=*,-labeler")
	cl := kubeloopClient(t, kubeconfig)
	ctx := context.Background()
	_, err := client.For[*api.ConfigMap](cl).Namespace("default").Create(ctx,
		&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "hello"}, Data: map[string]string{"greeting": "world"}}, client.CreateOptions{})
	require.NoError(t, err)

	// The other controllers run: a ReplicaSet created after the ConfigMap
	// gets its pod, so the controller manager has been at work since.
	replicas := int32(1)
	_, err = client.For[*api.ReplicaSet](cl).Namespace("default").Create(ctx, &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "web"},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx"}}},
			},
		},
	}, client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		l, err := client.For[*api.Pod](cl).Namespace("default").List(ctx, client.ListOptions{LabelSelector: "app=web"})
		return err == nil && len(l.Items) == 1
	}, deadline, tick)

	started := startedControllers(up)
	require.Contains(t, started, "replicaset")
	require.NotContains(t, started, "labeler", "*,-labeler does not start the labeler")
	cm, err := client.For[*api.ConfigMap](cl).Namespace("default").Get(ctx, "hello", client.GetOptions{})
	require.NoError(t, err)
	require.NotContains(t, cm.Labels, "managed-by")
	require.Equal(t, 0, up.terminate(t))
}

func TestUpWithLabelerNamespacesLabelsOnlyThere(t *testing.T) {
	up, kubeconfig := startUp(t, "--labeler-namespaces=team-a")
	cl := kubeloopClient(t, kubeconfig)
	ctx := context.Background()
	_, err := client.For[*api.Namespace](cl).Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team-a"}}, client.CreateOptions{})
	require.NoError(t, err)
	cms := func(ns string) *client.Resource[*api.ConfigMap] { return client.For[*api.ConfigMap](cl).Namespace(ns) }
	// The labeler's informer delivers in resourceVersion order: once the
	// later ConfigMap (team-a) is labelled, the earlier one (default) has
	// been seen and skipped.
	for _, ns := range []string{"default", "team-a"} {
		_, err := cms(ns).Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "hello"}}, client.CreateOptions{})
		require.NoError(t, err)
	}
	require.Eventually(t, func() bool {
		cm, err := cms("team-a").Get(ctx, "hello", client.GetOptions{})
		return err == nil && cm.Labels["managed-by"] == "configmap-controller"
	}, deadline, tick)
	cm, err := cms("default").Get(ctx, "hello", client.GetOptions{})
	require.NoError(t, err)
	require.NotContains(t, cm.Labels, "managed-by", "default is not among --labeler-namespaces")
	// The new namespace got its default ServiceAccount from the
	// controller manager too.
	require.Eventually(t, func() bool {
		_, err := client.For[*api.ServiceAccount](cl).Namespace("team-a").Get(ctx, "default", client.GetOptions{})
		return err == nil
	}, deadline, tick)
	require.Equal(t, 0, up.terminate(t))
}
