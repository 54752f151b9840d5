package client

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestPathBuildsURLsForEveryScopeAndGroup(t *testing.T) {
	c, err := NewForConfig(&Config{Host: "http://127.0.0.1:1"})
	require.NoError(t, err)
	pods := For[*api.Pod](c).Dynamic()
	nodes := For[*api.Node](c).Dynamic()
	rs := For[*api.ReplicaSet](c).Dynamic()
	leases := For[*api.Lease](c).Dynamic()
	cases := []struct {
		name string
		got  string
		want string
	}{
		{"core namespaced collection", pods.path("default", ""), "/api/v1/namespaces/default/pods"},
		{"core namespaced object", pods.path("default", "web-1"), "/api/v1/namespaces/default/pods/web-1"},
		{"core all namespaces", pods.path("", ""), "/api/v1/pods"},
		{"binding subresource", pods.path("ns1", "web-1", "binding"), "/api/v1/namespaces/ns1/pods/web-1/binding"},
		{"cluster-scoped object", nodes.path("", "n1"), "/api/v1/nodes/n1"},
		{"cluster-scoped ignores namespace", nodes.path("default", "n1", "status"), "/api/v1/nodes/n1/status"},
		{"apps group", rs.path("default", "web"), "/apis/apps/v1/namespaces/default/replicasets/web"},
		{"scale subresource", rs.path("default", "web", "scale"), "/apis/apps/v1/namespaces/default/replicasets/web/scale"},
		{"dotted group", leases.path("kube-system", "sched"), "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/sched"},
		{"name is escaped", pods.path("default", "a b"), "/api/v1/namespaces/default/pods/a%20b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, tc.got) })
	}
}

func TestListQueryEncodesListAndWatchOptions(t *testing.T) {
	yes, timeout := true, int64(321)
	opts := ListOptions{
		LabelSelector: "app=web,tier!=db", FieldSelector: "spec.nodeName=n1", Limit: 500,
		Continue: "tok", ResourceVersion: "42", ResourceVersionMatch: ResourceVersionMatchNotOlderThan,
		AllowWatchBookmarks: true, SendInitialEvents: &yes, TimeoutSeconds: &timeout, Watch: true,
	}
	list := listQuery(opts, false)
	assert.Equal(t, url.Values{
		"labelSelector": {"app=web,tier!=db"}, "fieldSelector": {"spec.nodeName=n1"}, "limit": {"500"},
		"continue": {"tok"}, "resourceVersion": {"42"}, "resourceVersionMatch": {"NotOlderThan"},
	}, list, "a LIST never carries watch parameters")

	watch := listQuery(ListOptions{ResourceVersion: "7", AllowWatchBookmarks: true, SendInitialEvents: &yes, TimeoutSeconds: &timeout}, true)
	assert.Equal(t, url.Values{
		"watch": {"true"}, "resourceVersion": {"7"}, "allowWatchBookmarks": {"true"},
		"sendInitialEvents": {"true"}, "timeoutSeconds": {"321"},
	}, watch)
	assert.Equal(t, "labelSelector=app%3Dweb%2Ctier%21%3Ddb", url.Values{"labelSelector": list["labelSelector"]}.Encode())
}

func TestWriteOptionsEncodeQuery(t *testing.T) {
	force := true
	assert.Equal(t, url.Values{"fieldManager": {"kubectl"}, "force": {"true"}, "fieldValidation": {"Strict"}, "dryRun": {"All"}},
		PatchOptions{FieldManager: "kubectl", Force: &force, FieldValidation: FieldValidationStrict, DryRun: []string{api.DryRunAll}}.query())
	assert.Equal(t, url.Values{"fieldManager": {"kubectl-create"}}, CreateOptions{FieldManager: "kubectl-create"}.query())
	assert.Empty(t, UpdateOptions{}.query())
}

// recorded is what a fake server saw of one request.
type recorded struct {
	Method, Path, RawQuery string
	Header                 http.Header
	Body                   []byte
}

// recordingServer answers every request with status code and body, and
// records what it received.
func recordingServer(t *testing.T, code int, body string) (*httptest.Server, func() []recorded) {
	var mu sync.Mutex
	var reqs []recorded
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		reqs = append(reqs, recorded{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), b})
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []recorded {
		mu.Lock()
		defer mu.Unlock()
		return append([]recorded(nil), reqs...)
	}
}

func TestCreateSendsTypedBodyHeadersAndQuery(t *testing.T) {
	srv, reqs := recordingServer(t, http.StatusCreated, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"default","uid":"u1"}}`)
	c, err := NewForConfig(&Config{Host: srv.URL, BearerToken: "s3cret", UserAgent: "kubeloop/test", ContentType: ContentTypeJSON})
	require.NoError(t, err)

	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1"}}
	got, err := For[*api.Pod](c).Namespace("default").Create(context.Background(), pod, CreateOptions{FieldManager: "tester"})
	require.NoError(t, err)
	assert.Equal(t, "u1", got.UID)
	assert.Empty(t, pod.Kind, "the caller's object is not modified")

	r := reqs()
	require.Len(t, r, 1)
	assert.Equal(t, http.MethodPost, r[0].Method)
	assert.Equal(t, "/api/v1/namespaces/default/pods", r[0].Path)
	assert.Equal(t, "fieldManager=tester", r[0].RawQuery)
	assert.Equal(t, "Bearer s3cret", r[0].Header.Get("Authorization"))
	assert.Equal(t, "kubeloop/test", r[0].Header.Get("User-Agent"))
	assert.Equal(t, "application/json", r[0].Header.Get("Content-Type"))
	assert.Equal(t, "application/json", r[0].Header.Get("Accept"))
	var sent map[string]any
	require.NoError(t, json.Unmarshal(r[0].Body, &sent))
	assert.Equal(t, "v1", sent["apiVersion"])
	assert.Equal(t, "Pod", sent["kind"])
	assert.Equal(t, "web-1", sent["metadata"].(map[string]any)["name"])
}

func TestPatchSendsPatchTypeAsContentTypeToSubresource(t *testing.T) {
	srv, reqs := recordingServer(t, http.StatusOK, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}`)
	c, err := NewForConfig(&Config{Host: srv.URL})
	require.NoError(t, err)
	_, err = For[*api.Pod](c).Namespace("ns").Patch(context.Background(), "p", MergePatchType,
		[]byte(`{"status":{"phase":"Running"}}`), PatchOptions{}, "status")
	require.NoError(t, err)
	r := reqs()
	require.Len(t, r, 1)
	assert.Equal(t, http.MethodPatch, r[0].Method)
	assert.Equal(t, "/api/v1/namespaces/ns/pods/p/status", r[0].Path)
	assert.Equal(t, "application/merge-patch+json", r[0].Header.Get("Content-Type"))
	assert.JSONEq(t, `{"status":{"phase":"Running"}}`, string(r[0].Body))
}

func TestDeleteSendsDeleteOptionsBodyWithTypeMeta(t *testing.T) {
	srv, reqs := recordingServer(t, http.StatusOK, `{"kind":"Status","apiVersion":"v1","status":"Success"}`)
	c, err := NewForConfig(&Config{Host: srv.URL, ContentType: ContentTypeJSON})
	require.NoError(t, err)
	bg := api.DeletePropagationBackground
	require.NoError(t, For[*api.ReplicaSet](c).Namespace("ns").Delete(context.Background(), "web", api.DeleteOptions{PropagationPolicy: &bg}))
	require.NoError(t, For[*api.Pod](c).Namespace("ns").DeleteCollection(context.Background(), api.DeleteOptions{}, ListOptions{LabelSelector: "app=web"}))
	r := reqs()
	require.Len(t, r, 2)
	assert.Equal(t, "/apis/apps/v1/namespaces/ns/replicasets/web", r[0].Path)
	assert.JSONEq(t, `{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background"}`, string(r[0].Body))
	assert.Equal(t, http.MethodDelete, r[1].Method)
	assert.Equal(t, "/api/v1/namespaces/ns/pods", r[1].Path)
	assert.Equal(t, "labelSelector=app%3Dweb", r[1].RawQuery)
}

func TestThrottlingDelaysRequestsBeyondBurst(t *testing.T) {
	srv, reqs := recordingServer(t, http.StatusOK, `{"major":"1","minor":"37","gitVersion":"v1.37.0-kubeloop"}`)
	// One token every 1000 s: after the burst, the next request would have
	// to wait far longer than its deadline, which rate.Limiter reports at
	// once, so the check does not depend on timing.
	c, err := NewForConfig(&Config{Host: srv.URL, QPS: 0.001, Burst: 3})
	require.NoError(t, err)
	require.NotNil(t, c.RateLimiter())
	for i := 0; i < 3; i++ {
		_, err := c.ServerVersion(context.Background())
		require.NoError(t, err, "request %d is within the burst", i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = c.ServerVersion(ctx)
	require.Error(t, err, "the fourth request must wait for a token")
	assert.Contains(t, err.Error(), "rate limiter")
	assert.Len(t, reqs(), 3, "the throttled request never reached the server")
}

func TestNoThrottlingWhenQPSIsZero(t *testing.T) {
	srv, reqs := recordingServer(t, http.StatusOK, `{}`)
	c, err := NewForConfig(&Config{Host: srv.URL})
	require.NoError(t, err)
	assert.Nil(t, c.RateLimiter())
	for i := 0; i < 50; i++ {
		_, err := c.ServerVersion(context.Background())
		require.NoError(t, err)
	}
	assert.Len(t, reqs(), 50)
}

func TestConfigRejectsBadHostAndContentType(t *testing.T) {
	_, err := NewForConfig(&Config{})
	require.Error(t, err)
	_, err = NewForConfig(&Config{Host: "ftp://x"})
	require.Error(t, err)
	_, err = NewForConfig(&Config{Host: "http://x", ContentType: "application/vnd.kubernetes.protobuf"})
	require.Error(t, err)
	c, err := NewForConfig(&Config{Host: "127.0.0.1:6443"})
	require.NoError(t, err)
	assert.Equal(t, "https://127.0.0.1:6443", c.Host(), "a bare host:port is https")
}

type recordingWarnings struct {
	mu    sync.Mutex
	texts []string
}

func (w *recordingWarnings) HandleWarningHeader(code int, agent, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.texts = append(w.texts, text)
}

func TestWarningHeadersReachTheWarningHandler(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Warning", `299 - "unknown field \"spec.foo\""`)
		w.Header().Add("Warning", `299 - "second"`)
		_, _ = io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	wh := &recordingWarnings{}
	c, err := NewForConfig(&Config{Host: srv.URL, WarningHandler: wh})
	require.NoError(t, err)
	_, err = c.ServerVersion(context.Background())
	require.NoError(t, err)
	assert.Equal(t, []string{`unknown field "spec.foo"`, "second"}, wh.texts)
}

func TestParseWarning(t *testing.T) {
	code, agent, text, ok := parseWarning(`299 - "deprecated: use v2"`)
	require.True(t, ok)
	assert.Equal(t, 299, code)
	assert.Equal(t, "-", agent)
	assert.Equal(t, "deprecated: use v2", text)
	for _, bad := range []string{"", "299", `299 -`, `abc - "x"`, `299 - unquoted`} {
		_, _, _, ok := parseWarning(bad)
		assert.False(t, ok, bad)
	}
}

func TestRequestLogAtDebugNamesVerbURLAndCode(t *testing.T) {
	srv, _ := recordingServer(t, http.StatusNotFound, `{}`)
	var buf syncBuffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := NewForConfig(&Config{Host: srv.URL, Logger: logger})
	require.NoError(t, err)
	_, err = For[*api.Pod](c).Namespace("ns").Get(context.Background(), "p", GetOptions{})
	require.True(t, api.IsNotFound(err))
	line := buf.String()
	assert.Contains(t, line, "level=DEBUG")
	assert.Contains(t, line, "verb=GET")
	assert.Contains(t, line, "/api/v1/namespaces/ns/pods/p")
	assert.Contains(t, line, "code=404")
	assert.Contains(t, line, "latency=")
}

func TestDefaultWarningHandlerLogsEachMessageOnce(t *testing.T) {
	var buf syncBuffer
	h := NewLogOnceWarningHandler(slog.New(slog.NewTextHandler(&buf, nil)))
	h.HandleWarningHeader(299, "-", "deprecated")
	h.HandleWarningHeader(299, "-", "deprecated")
	h.HandleWarningHeader(299, "-", "other")
	assert.Equal(t, 1, strings.Count(buf.String(), "warning=deprecated"))
	assert.Equal(t, 1, strings.Count(buf.String(), "warning=other"))
}

// syncBuffer is a bytes.Buffer safe for a logger and a test to share.
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

func TestNamesAreEscapedOnceOnTheWire(t *testing.T) {
	var mu sync.Mutex
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.RequestURI
		mu.Unlock()
		_, _ = io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	c, err := NewForConfig(&Config{Host: srv.URL + "/prefix/"})
	require.NoError(t, err)
	_, err = For[*api.ConfigMap](c).Namespace("ns").Get(context.Background(), "a b/c", GetOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, "/prefix/api/v1/namespaces/ns/configmaps/a%20b%2Fc?resourceVersion=0", got)
}
