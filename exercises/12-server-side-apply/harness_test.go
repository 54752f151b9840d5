//go:build exercise || solution

package apply

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
)

// The grader starts one real cluster (embedded etcd and the apiserver on
// 127.0.0.1, nothing else running) and calls your Apply with a client
// whose requests it records. The other managers are the test itself: a
// user who edits with a merge patch (manager "kubectl-edit"), a labeler
// that applies labels (manager "labeler"). Everything it checks is what
// the apiserver stored: the Deployment and its metadata.managedFields.

var testCluster *cluster.Cluster

// The other managers.
const (
	userManager    = "kubectl-edit"
	labelerManager = "labeler"
)

func TestMain(m *testing.M) {
	level := slog.LevelWarn
	if os.Getenv("KUBELOOP_TEST_LOGS") != "" {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(logger)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	c, err := cluster.Start(ctx, cluster.Options{Logger: logger})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "start cluster:", err)
		os.Exit(1)
	}
	testCluster = c
	code := m.Run()
	c.Stop()
	os.Exit(code)
}

// request is one request the operator's client made.
type request struct {
	Method, Path, ContentType string
	Query                     map[string][]string
	Code                      int
}

func (r request) String() string {
	return fmt.Sprintf("%s %s?%v (%s) -> %d", r.Method, r.Path, r.Query, r.ContentType, r.Code)
}

// recorder is a transport that records every request.
type recorder struct {
	base http.RoundTripper
	mu   sync.Mutex
	reqs []request
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.base.RoundTrip(req)
	rec := request{Method: req.Method, Path: req.URL.Path, ContentType: req.Header.Get("Content-Type"), Query: req.URL.Query()}
	if err == nil {
		rec.Code = resp.StatusCode
	}
	r.mu.Lock()
	r.reqs = append(r.reqs, rec)
	r.mu.Unlock()
	return resp, err
}

// writes returns the recorded requests that were not reads.
func (r *recorder) writes() []request {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []request
	for _, q := range r.reqs {
		if q.Method != http.MethodGet {
			out = append(out, q)
		}
	}
	return out
}

// operator returns a client for Apply whose requests are recorded.
func operator(t *testing.T) (*client.Client, *recorder) {
	t.Helper()
	rec := &recorder{}
	cfg := testCluster.Config.ForComponent(FieldManager)
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { rec.base = rt; return rec }
	c, err := client.NewForConfig(cfg)
	require.NoError(t, err)
	return c, rec
}

// newNamespace creates a namespace for one test.
func newNamespace(t *testing.T) string {
	t.Helper()
	name := strings.ToLower(strings.TrimPrefix(t.Name(), "Test"))
	if len(name) > 40 {
		name = name[:40]
	}
	name = fmt.Sprintf("%s-%d", name, time.Now().UnixNano()%100000)
	_, err := client.For[*api.Namespace](testCluster.Client).Create(context.Background(),
		&api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}, client.CreateOptions{})
	require.NoError(t, err)
	return name
}

// entriesOf returns the managedFields entries of manager.
func entriesOf(d *api.Deployment, manager string) []api.ManagedFieldsEntry {
	var out []api.ManagedFieldsEntry
	for _, e := range d.ManagedFields {
		if e.Manager == manager {
			out = append(out, e)
		}
	}
	return out
}

// fieldsOf returns the fields manager owns in d, through any of its
// entries, as sorted paths in the syntax of conflict messages
// (".spec.replicas", `.spec.template.spec.containers[name="web"].image`);
// a path that is owned itself and has owned children too is listed with
// them (FieldsV1's "." member).
func fieldsOf(t *testing.T, d *api.Deployment, manager string) []string {
	t.Helper()
	var out []string
	for _, e := range entriesOf(d, manager) {
		if e.FieldsV1 == nil {
			continue
		}
		var set map[string]any
		require.NoError(t, json.Unmarshal(e.FieldsV1.Raw, &set), "managedFields of %s: %s", manager, e.FieldsV1.Raw)
		out = append(out, flatten(t, "", set)...)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

func flatten(t *testing.T, prefix string, set map[string]any) []string {
	t.Helper()
	if len(set) == 0 {
		return []string{prefix}
	}
	var out []string
	for member, child := range set {
		var path string
		switch {
		case member == ".":
			out = append(out, prefix)
			continue
		case strings.HasPrefix(member, "f:"):
			path = prefix + "." + member[2:]
		case strings.HasPrefix(member, "k:"):
			var key map[string]any
			require.NoError(t, json.Unmarshal([]byte(member[2:]), &key), "a key in managedFields: %s", member)
			var names []string
			for k := range key {
				names = append(names, k)
			}
			sort.Strings(names)
			var parts []string
			for _, k := range names {
				v, _ := json.Marshal(key[k])
				parts = append(parts, k+"="+string(v))
			}
			path = prefix + "[" + strings.Join(parts, ",") + "]"
		case strings.HasPrefix(member, "v:"):
			path = prefix + "[=" + member[2:] + "]"
		default:
			t.Fatalf("a member of managedFields that is not f:, k:, v: or .: %q", member)
		}
		m, _ := child.(map[string]any)
		out = append(out, flatten(t, path, m)...)
	}
	return out
}
