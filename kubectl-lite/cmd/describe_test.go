package cmd

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

// recordEvent writes an Event the way record.EventRecorder would.
func recordEvent(t *testing.T, ns string, about api.Object, kind, component, reason, msg string, at time.Time) {
	t.Helper()
	m := about.GetObjectMeta()
	e := &api.Event{
		ObjectMeta:     api.ObjectMeta{GenerateName: m.Name + "-", Namespace: ns},
		InvolvedObject: api.ObjectReference{Kind: kind, Namespace: ns, Name: m.Name, UID: m.UID},
		Reason:         reason, Message: msg, Type: api.EventTypeNormal, Count: 1,
		Source:         api.EventSource{Component: component},
		FirstTimestamp: api.NewTime(at), LastTimestamp: api.NewTime(at),
	}
	_, err := client.For[*api.Event](testCluster.Client).Namespace(ns).Create(context.Background(), e, client.CreateOptions{})
	require.NoError(t, err)
}

// ownedPod creates a pod controlled by rs, as the ReplicaSet controller would.
func ownedPod(t *testing.T, rs *api.ReplicaSet, name string) *api.Pod {
	t.Helper()
	yes := true
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: rs.Namespace, Labels: rs.Spec.Template.Labels,
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: &yes}}},
		Spec: rs.Spec.Template.Spec,
	}
	p, err := client.For[*api.Pod](testCluster.Client).Namespace(rs.Namespace).Create(context.Background(), p, client.CreateOptions{})
	require.NoError(t, err)
	return p
}

func getRS(t *testing.T, ns, name string) *api.ReplicaSet {
	t.Helper()
	rs, err := client.For[*api.ReplicaSet](testCluster.Client).Namespace(ns).Get(context.Background(), name, client.GetOptions{})
	require.NoError(t, err)
	return rs
}

func TestDescribeReplicaSetShowsPodsByPhaseAndEvents(t *testing.T) {
	ns := newNamespace(t)
	mustKL(t, ns, rsManifest("web", 3), "apply", "-f", "-")
	rs := getRS(t, ns, "web")
	for i := range 3 {
		p := ownedPod(t, rs, fmt.Sprintf("web-%d", i))
		recordEvent(t, ns, rs, "ReplicaSet", "replicaset-controller", "SuccessfulCreate", "Created pod: "+p.Name, time.Now().Add(time.Duration(i-10)*time.Second))
	}
	mustKL(t, ns, podManifest("stranger", "app: web"), "create", "-f", "-") // matches the selector, not controlled
	writePodStatus(t, ns, "web-0", runningStatus(true))
	writePodStatus(t, ns, "stranger", runningStatus(true))
	fakeReplicaSetStatus(t, ns, "web", 1)
	golden(t, "describe_rs", mustKL(t, ns, "", "describe", "rs", "web"))

	p, err := client.For[*api.Pod](testCluster.Client).Namespace(ns).Get(context.Background(), "web-0", client.GetOptions{})
	require.NoError(t, err)
	recordEvent(t, ns, p, "Pod", "default-scheduler", "Scheduled", "Successfully assigned "+ns+"/web-0 to node-1", time.Now())
	golden(t, "describe_pod", mustKL(t, ns, "", "describe", "pod/web-0"))
	assert.Regexp(t, `(?m)^Events:\s+<none>$`, mustKL(t, ns, "", "describe", "pod", "web-1"))
}

func TestEventsListsOldestFirst(t *testing.T) {
	ns := newNamespace(t)
	mustKL(t, ns, podManifest("p", ""), "create", "-f", "-")
	p, err := client.For[*api.Pod](testCluster.Client).Namespace(ns).Get(context.Background(), "p", client.GetOptions{})
	require.NoError(t, err)
	now := time.Now()
	recordEvent(t, ns, p, "Pod", "kubelet", "Started", "Started container app", now.Add(-time.Minute))
	recordEvent(t, ns, p, "Pod", "default-scheduler", "Scheduled", "Successfully assigned", now.Add(-3*time.Minute))
	golden(t, "events", mustKL(t, ns, "", "events"))
	out := mustKL(t, ns, "", "get", "ev", "-A")
	assert.Regexp(t, `^NAMESPACE\s+LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE\n`, out)
}

func TestWatchSpineNumbersTheStepsItObserves(t *testing.T) {
	ns := newNamespace(t)
	mustKL(t, ns, rsManifest("web", 1), "apply", "-f", "-")
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan result, 1)
	go func() { done <- klContext(ctx, t, ns, "", out, "watch-spine", "rs", "web") }()
	waitFor := func(s string) {
		t.Helper()
		require.Eventually(t, func() bool { return strings.Contains(out.String(), s) }, 20*time.Second, 10*time.Millisecond, "waiting for %q in\n%s", s, out.String())
	}
	waitFor("watching replicaset/web")

	// Each step of the spine, played by hand in the order the real
	// components would play it, waiting for watch-spine to see each one.
	mustKL(t, ns, "", "scale", "rs", "web", "--replicas", "2")
	waitFor("watch MODIFIED")
	rs := getRS(t, ns, "web")
	pod := ownedPod(t, rs, "web-a")
	waitFor("watch ADDED pod/web-a")
	recordEvent(t, ns, rs, "ReplicaSet", "replicaset-controller", "SuccessfulCreate", "Created pod: web-a", time.Now())
	waitFor("SuccessfulCreate")
	require.NoError(t, client.For[*api.Pod](testCluster.Client).Namespace(ns).Bind(context.Background(),
		&api.Binding{ObjectMeta: api.ObjectMeta{Name: "web-a", Namespace: ns}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}}, client.CreateOptions{}))
	waitFor("bound to node node-1")
	recordEvent(t, ns, pod, "Pod", "kubelet", "Started", "Started container app", time.Now())
	waitFor("event Started")
	writePodStatus(t, ns, "web-a", runningStatus(true))
	waitFor("status Running")
	fakeReplicaSetStatus(t, ns, "web", 1)
	waitFor("status replicas=2 ready=1")
	cancel()
	r := <-done
	assert.Equal(t, 0, r.code, r.err)
	golden(t, "watch_spine", r.out)
}

// TestBinaryExitCodes runs the real binary: 0 on success, 1 for a failed
// command, 2 for a wrong command line.
func TestBinaryExitCodes(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "kubectl-lite")
	build := exec.Command("go", "build", "-o", bin, "..")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	ns := newNamespace(t)
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"get", "namespaces", ns}, 0, ""},
		{[]string{"get", "pods", "nope"}, 1, `Error from server (NotFound): pods "nope" not found`},
		{[]string{"frobnicate"}, 2, `error: unknown command "frobnicate" for "kubectl-lite"`},
		{[]string{"describe", "pods"}, 2, "you must specify the name of the pod"},
	} {
		c := exec.Command(bin, append([]string{"-n", ns}, tc.args...)...)
		c.Env = append(os.Environ(), "KUBECONFIG="+testCluster.KubeconfigPath)
		var stderr strings.Builder
		c.Stderr = &stderr
		err := c.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		assert.Equal(t, tc.code, code, "%v: %s", tc.args, stderr.String())
		assert.Contains(t, stderr.String(), tc.stderr, "%v", tc.args)
	}
}

// TestSourceStaysSmall keeps the promise of the package doc.
func TestSourceStaysSmall(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	files = append(files, "../main.go")
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		lines += strings.Count(string(data), "\n")
	}
	t.Logf("kubectl-lite is %d lines of Go", lines)
	assert.Less(t, lines, 2400, "kubectl-lite should stay readable in an afternoon")
}
