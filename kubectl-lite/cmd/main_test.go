package cmd

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// testCluster is one API-only cluster for the package; each test works in
// a namespace of its own.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{}, func(c *cluster.Cluster) { testCluster = c })
}

// syncBuffer is a bytes.Buffer safe to read while a command writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// result is what one in-process run of kubectl-lite printed.
type result struct {
	out, err string
	code     int
}

// kl runs kubectl-lite in-process against the test cluster, in namespace ns.
func kl(t *testing.T, ns, stdin string, args ...string) result {
	t.Helper()
	return klContext(context.Background(), t, ns, stdin, &syncBuffer{}, args...)
}

func klContext(ctx context.Context, t *testing.T, ns, stdin string, out *syncBuffer, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	errOut := &syncBuffer{}
	full := append([]string{"--kubeconfig", testCluster.KubeconfigPath, "-n", ns}, args...)
	code := Run(ctx, full, IOStreams{In: strings.NewReader(stdin), Out: out, ErrOut: errOut})
	return result{out: out.String(), err: errOut.String(), code: code}
}

// mustKL runs kubectl-lite and fails the test if it did not exit 0.
func mustKL(t *testing.T, ns, stdin string, args ...string) string {
	t.Helper()
	r := kl(t, ns, stdin, args...)
	require.Equal(t, 0, r.code, "kubectl-lite %v: stderr %q", args, r.err)
	return r.out
}

// newNamespace creates a namespace named after the test. Unlike
// clustertest.Namespace the name has no random part: describe and get print
// it, and the golden files hold it. The package's cluster outlives a run of
// the tests, so a rerun under -count=N finds its namespace taken and numbers
// its own (name-2, ...); golden maps the number away again.
func newNamespace(t *testing.T) string {
	t.Helper()
	base := namespaceBase(t)
	nsClient := client.For[*api.Namespace](testCluster.Client)
	for run := 1; run <= maxReruns; run++ {
		name := base
		if run > 1 {
			name = fmt.Sprintf("%s-%d", base, run)
		}
		_, err := nsClient.Create(context.Background(), &api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}, client.CreateOptions{})
		if api.IsAlreadyExists(err) {
			continue
		}
		require.NoError(t, err, "create namespace %s", name)
		return name
	}
	require.FailNow(t, "too many reruns", "namespaces %s-2..%d all exist", base, maxReruns)
	return ""
}

// maxReruns bounds the -count a test binary supports.
const maxReruns = 99

// namespaceBase is the test's name as the start of a DNS label, leaving
// room for a rerun number.
func namespaceBase(t *testing.T) string {
	name := strings.ToLower(regexp.MustCompile(`[^a-zA-Z0-9]+`).ReplaceAllString(t.Name(), "-"))
	if len(name) > 50 {
		name = name[:50]
	}
	return strings.Trim(name, "-")
}

// The normaliser masks what changes from run to run. Runs of spaces are
// collapsed because a masked AGE no longer has the width the tabwriter
// aligned on. UIDs go first: a group of one such as "123d" would otherwise
// pass for an age.
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`), "<uid>"},
	{regexp.MustCompile(`\b\d+[smhdy](\d+[smh])?\b`), "<age>"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`), "<time>"},
	{regexp.MustCompile(`[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d [+-]\d{4}`), "<time>"},
	{regexp.MustCompile(`(resourceVersion"?:\s*"?)\d+`), "${1}<rv>"},
	{regexp.MustCompile(`rv=\d+\s*`), "rv=<rv> "},
	{regexp.MustCompile(`resourceVersion \d+`), "resourceVersion <rv>"},
	{regexp.MustCompile(`(\S) {2,}`), "$1  "},
	{regexp.MustCompile(`(?m) +$`), ""},
}

func normalise(s string) string {
	for _, v := range volatile {
		s = v.re.ReplaceAllString(s, v.with)
	}
	return s
}

// golden compares normalised output with testdata/<name>.golden; -update
// rewrites the file instead.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "testdata", name+".golden")
	base := namespaceBase(t)
	got = regexp.MustCompile(regexp.QuoteMeta(base)+`-\d+\b`).ReplaceAllString(normalise(got), base)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "no golden file; run go test ./kubectl-lite/... -update")
	require.Equal(t, string(want), got)
}

// writePodStatus stands in for a kubelet: it writes pod status directly.
func writePodStatus(t *testing.T, ns, name string, mutate func(*api.Pod)) {
	t.Helper()
	pods := client.For[*api.Pod](testCluster.Client).Namespace(ns)
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		p, err := pods.Get(context.Background(), name, client.GetOptions{})
		if err != nil {
			return err
		}
		mutate(p)
		_, err = pods.UpdateStatus(context.Background(), p, client.UpdateOptions{})
		return err
	}))
}

func runningStatus(ready bool) func(*api.Pod) {
	return func(p *api.Pod) {
		p.Status.Phase = api.PodRunning
		p.Status.PodIP = "10.0.0.7"
		p.Status.ContainerStatuses = []api.ContainerStatus{{Name: p.Spec.Containers[0].Name, Ready: ready,
			State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: api.Now()}}}}
	}
}

func waitingStatus(reason string, restarts int32) func(*api.Pod) {
	return func(p *api.Pod) {
		p.Status.Phase = api.PodPending
		if restarts > 0 {
			p.Status.Phase = api.PodRunning
		}
		p.Status.ContainerStatuses = []api.ContainerStatus{{Name: p.Spec.Containers[0].Name, RestartCount: restarts,
			State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: reason}}}}
	}
}

func podManifest(name, labels string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata:
  name: %s
  labels: {%s}
spec:
  containers:
  - name: app
    image: nginx:1.27
`, name, labels)
}

func rsManifest(name string, replicas int) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: %s
  labels: {app: %s}
spec:
  replicas: %d
  selector:
    matchLabels: {app: %s}
  template:
    metadata:
      labels: {app: %s}
    spec:
      containers:
      - name: app
        image: nginx:1.27
`, name, name, replicas, name, name)
}

func TestNormaliseMasksAUIDWhoseGroupLooksLikeAnAge(t *testing.T) {
	require.Equal(t, "uid: <uid>  age <age>", normalise("uid: 0fb1b507-123d-49ed-9dbe-e3a80e064115  age 5m"))
}
