package cmd

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

func TestHumanDurationFollowsKubectl(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-5 * time.Second:                         "<invalid>",
		-time.Second:                             "0s",
		0:                                        "0s",
		119 * time.Second:                        "119s",
		2 * time.Minute:                          "2m",
		3*time.Minute + 20*time.Second:           "3m20s",
		15 * time.Minute:                         "15m",
		179 * time.Minute:                        "179m",
		3 * time.Hour:                            "3h",
		2*time.Hour + 59*time.Minute + time.Hour: "3h59m",
		20 * time.Hour:                           "20h",
		50 * time.Hour:                           "2d2h",
		48 * time.Hour:                           "2d",
		10 * 24 * time.Hour:                      "10d",
		(2*365 + 30) * 24 * time.Hour:            "2y30d",
		9 * 365 * 24 * time.Hour:                 "9y",
	} {
		assert.Equal(t, want, api.HumanDuration(d), "%v", d)
	}
}

func TestGetPodsShowsKubectlStatusColumns(t *testing.T) {
	ns := newNamespace(t)
	for _, p := range []string{podManifest("running", "app: web"), podManifest("crashing", "app: web"),
		podManifest("creating", "app: db"), podManifest("fresh", "")} {
		mustKL(t, ns, p, "create", "-f", "-")
	}
	writePodStatus(t, ns, "running", runningStatus(true))
	writePodStatus(t, ns, "crashing", waitingStatus("CrashLoopBackOff", 4))
	writePodStatus(t, ns, "creating", waitingStatus("ContainerCreating", 0))

	golden(t, "get_pods", mustKL(t, ns, "", "get", "pods"))
	golden(t, "get_pods_wide", mustKL(t, ns, "", "get", "po", "-o", "wide"))
	golden(t, "get_pods_selector_labels", mustKL(t, ns, "", "get", "pod", "-l", "app=web", "--show-labels"))
	assert.Equal(t, "pod/running\npod/crashing\n", mustKL(t, ns, "", "get", "pod/running", "pod/crashing", "-o", "name"))
}

func TestGetPodShowsTerminatingOnceDeletionBegins(t *testing.T) {
	ns := newNamespace(t)
	mustKL(t, ns, strings.Replace(podManifest("held", ""), "  labels: {}\n", "  finalizers: [kubeloop.test/hold]\n", 1), "create", "-f", "-")
	// delete waits, through a watch, until the finalizer is released.
	out := &syncBuffer{}
	done := make(chan result, 1)
	go func() { done <- klContext(context.Background(), t, ns, "", out, "delete", "pod", "held") }()
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "deleted") }, 20*time.Second, 10*time.Millisecond)
	assert.Contains(t, mustKL(t, ns, "", "get", "pod", "held"), "Terminating")
	select {
	case r := <-done:
		t.Fatalf("delete returned while the pod still existed: %+v", r)
	default:
	}
	patch := []byte(`{"metadata":{"finalizers":null}}`)
	_, err := client.For[*api.Pod](testCluster.Client).Namespace(ns).Patch(context.Background(), "held", client.MergePatchType, patch, client.PatchOptions{})
	require.NoError(t, err)
	r := <-done
	assert.Equal(t, 0, r.code, r.err)
	assert.Equal(t, "pod \"held\" deleted\n", r.out)
	assert.Contains(t, kl(t, ns, "", "get", "pod", "held").err, `Error from server (NotFound): pods "held" not found`)
}

func TestGetAllNamespacesPutsNamespaceFirst(t *testing.T) {
	ns := newNamespace(t)
	mustKL(t, ns, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: '1', b: '2'}\n", "create", "-f", "-")
	out := mustKL(t, ns, "", "get", "cm", "-A")
	lines := strings.Split(out, "\n")
	assert.Regexp(t, `^NAMESPACE\s+NAME\s+DATA\s+AGE$`, lines[0])
	assert.Regexp(t, `(?m)^`+ns+`\s+settings\s+2\s+\d+s$`, out)
}

func TestGetColumnsOfEveryKind(t *testing.T) {
	ns := newNamespace(t)
	mustKL(t, ns, rsManifest("web", 3), "apply", "-f", "-")
	mustKL(t, ns, "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: lock}\nspec: {holderIdentity: me}\n", "create", "-f", "-")
	mustKL(t, ns, "apiVersion: v1\nkind: Node\nmetadata: {name: "+ns+"-node, labels: {node-role.kubernetes.io/worker: ''}}\n", "create", "-f", "-")
	for typ, header := range map[string]string{
		"rs":         `NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE`,
		"leases":     `NAME\s+HOLDER\s+AGE`,
		"namespaces": `NAME\s+STATUS\s+AGE`,
		"no":         `NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION`,
	} {
		out := mustKL(t, ns, "", "get", typ)
		assert.Regexp(t, "^"+header+"\n", out, typ)
	}
	assert.Regexp(t, `(?m)^web\s+3\s+0\s+0\s+\d+s$`, mustKL(t, ns, "", "get", "replicasets.apps"))
	assert.Regexp(t, `(?m)^lock\s+me\s+`, mustKL(t, ns, "", "get", "lease", "lock"))
	assert.Regexp(t, `(?m)^`+ns+`-node\s+Unknown\s+worker\s+`, mustKL(t, ns, "", "get", "node", ns+"-node"))
}

func TestGetYAMLPrintsObjectForOneAndListForMany(t *testing.T) {
	ns := newNamespace(t)
	mustKL(t, ns, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: one}\ndata: {k: v}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: two}\n", "create", "-f", "-")
	golden(t, "get_cm_yaml", mustKL(t, ns, "", "get", "cm", "one", "-o", "yaml"))
	var list map[string]any
	require.NoError(t, json.Unmarshal([]byte(mustKL(t, ns, "", "get", "configmaps", "-o", "json")), &list))
	assert.Equal(t, "List", list["kind"])
	assert.Equal(t, "v1", list["apiVersion"])
	items := list["items"].([]any)
	require.Len(t, items, 2)
	assert.Equal(t, "ConfigMap", items[1].(map[string]any)["kind"])
}

func TestGetErrorsPrintLikeKubectl(t *testing.T) {
	ns := newNamespace(t)
	r := kl(t, ns, "", "get", "pods", "missing")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "Error from server (NotFound): pods \"missing\" not found\n", r.err)

	r = kl(t, ns, "", "get", "widgets")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "error: the server doesn't have a resource type \"widgets\"\n", r.err)

	r = kl(t, ns, "", "get", "pods")
	assert.Equal(t, 0, r.code)
	assert.Equal(t, "No resources found in "+ns+" namespace.\n", r.err)

	r = kl(t, ns, "", "get", "pods", "--no-such-flag")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.err, "error: unknown flag: --no-such-flag\nUsage: kubectl-lite get TYPE")

	r = kl(t, ns, "", "get", "pods", "-o", "table")
	assert.Equal(t, 2, r.code)
}

func TestGetWatchPrintsARowPerEvent(t *testing.T) {
	ns := newNamespace(t)
	mustKL(t, ns, podManifest("first", ""), "create", "-f", "-")
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan result, 1)
	go func() { done <- klContext(ctx, t, ns, "", out, "get", "pods", "-w") }()
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "first") }, 20*time.Second, 20*time.Millisecond)
	mustKL(t, ns, podManifest("second", ""), "create", "-f", "-")
	writePodStatus(t, ns, "second", runningStatus(true))
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "Running") }, 20*time.Second, 20*time.Millisecond)
	cancel()
	r := <-done
	assert.Equal(t, 0, r.code, r.err)
	golden(t, "get_pods_watch", r.out)
}
