package filters_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver"
	"kubeloop/apiserver/apiservertest"
	"kubeloop/client"
)

// holdCreate starts a create whose body is still arriving, so it holds a
// mutating slot until release is called; it returns once the server counts
// it in flight.
func holdCreate(t *testing.T, s *apiservertest.Server, hc *http.Client, ns string) (release func() int) {
	t.Helper()
	pr, pw := io.Pipe()
	req, err := http.NewRequest("POST", s.URL+"/api/v1/namespaces/"+ns+"/configmaps", pr)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	done := make(chan int, 1)
	go func() {
		resp, err := hc.Do(req)
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	_, err = pw.Write([]byte(`{"apiVersion":"v1","kind":"ConfigMap",`))
	require.NoError(t, err)
	return func() int {
		_, err := pw.Write([]byte(`"metadata":{"name":"held"}}`))
		require.NoError(t, err)
		require.NoError(t, pw.Close())
		return <-done
	}
}

// limitedServer is an apiserver that serves one write at a time, a
// namespace in it, and a client for the (non-admin) user alice.
func limitedServer(t *testing.T) (*apiservertest.Server, string, *http.Client) {
	t.Helper()
	s, err := apiservertest.Start(srv.Etcd, apiserver.Config{MaxMutatingRequestsInFlight: 1})
	require.NoError(t, err)
	t.Cleanup(s.API.Close)
	return s, s.NewNamespace(t), s.AsUser(t, "alice")
}

// Past --max-mutating-requests-inflight a write is 429 TooManyRequests
// with Retry-After, stores nothing, and reads, watches and system:masters
// still get through.
func TestMutatingRequestsBeyondTheLimitAre429(t *testing.T) {
	s, ns, alice := limitedServer(t)

	release := holdCreate(t, s, alice, ns)
	// Wait until the held create has its slot: then a second write by
	// alice is refused.
	// Each try has its own name: a try that ran before the held create got
	// its slot was stored, and must not be mistaken for the refused one.
	var (
		resp    apiservertest.Response
		refused string
		tries   int
	)
	require.Eventually(t, func() bool {
		tries++
		refused = fmt.Sprintf("second-%d", tries)
		resp = s.DoAs(t, alice, context.Background(), "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", cmJSON(refused, nil), nil)
		return resp.Code == http.StatusTooManyRequests
	}, 20*time.Second, 10*time.Millisecond)
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))
	st := resp.Obj(t)
	assert.Equal(t, "Status", st["kind"])
	assert.Equal(t, "TooManyRequests", st["reason"])
	assert.Equal(t, "Too many requests, please try again later.", st["message"])
	assert.EqualValues(t, 1, apiservertest.Get(st, "details", "retryAfterSeconds"))
	assert.Equal(t, http.StatusNotFound, s.Do(t, "GET", "/api/v1/namespaces/"+ns+"/configmaps/"+refused, "", "").Code, "the refused create stored nothing")
	assert.Contains(t, s.Do(t, "GET", "/metrics", "", "").Body,
		`apiserver_request_total{code="429",resource="configmaps",subresource="",verb="create"}`,
		"a refusal is counted, as Kubernetes' RecordDroppedRequest counts it")

	assert.Equal(t, http.StatusOK, s.DoAs(t, alice, context.Background(), "GET", "/api/v1/namespaces/"+ns+"/configmaps", "", "", nil).Code, "reads have their own limit")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	w := s.DoAs(t, alice, ctx, "GET", "/api/v1/namespaces/"+ns+"/configmaps?watch=true&timeoutSeconds=1", "", "", nil)
	assert.Equal(t, http.StatusOK, w.Code, "watches are exempt")
	assert.Equal(t, http.StatusCreated, s.Do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", cmJSON("admin", nil)).Code,
		"system:masters is never refused")

	require.Equal(t, http.StatusCreated, release())
	assert.Equal(t, http.StatusCreated, s.DoAs(t, alice, context.Background(), "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", cmJSON("third", nil), nil).Code,
		"the slot is free again")
}

// countingRoundTripper counts the requests a client sends.
type countingRoundTripper struct {
	next http.RoundTripper
	n    atomic.Int32
}

func (c *countingRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

// kubeloop's client waits out a 429's Retry-After and tries again, as
// client-go does, so a burst past the limit slows down instead of failing.
func TestClientRetriesAfterRetryAfter(t *testing.T) {
	s, ns, alice := limitedServer(t)
	release := holdCreate(t, s, alice, ns)
	require.Eventually(t, func() bool {
		return s.DoAs(t, alice, context.Background(), "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", cmJSON("probe", nil), nil).Code == http.StatusTooManyRequests
	}, 20*time.Second, 10*time.Millisecond)

	kp, err := s.CA.IssueClient("alice", nil)
	require.NoError(t, err)
	counter := &countingRoundTripper{}
	cl, err := client.NewForConfig(&client.Config{Host: s.URL,
		TLS:           client.TLSConfig{CAData: s.CA.CertPEM, CertData: kp.CertPEM, KeyData: kp.KeyPEM},
		WrapTransport: func(rt http.RoundTripper) http.RoundTripper { counter.next = rt; return counter }})
	require.NoError(t, err)
	created := make(chan error, 1)
	go func() {
		_, err := client.For[*api.ConfigMap](cl).Namespace(ns).Create(context.Background(),
			&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "patient"}}, client.CreateOptions{})
		created <- err
	}()
	// A second request only happens after a refusal and its Retry-After.
	require.Eventually(t, func() bool { return counter.n.Load() >= 2 }, 20*time.Second, 10*time.Millisecond,
		"the refused create is tried again")
	select {
	case err := <-created:
		t.Fatalf("the create finished while the slot was still held: %v", err)
	default:
	}
	require.Equal(t, http.StatusCreated, release())
	select {
	case err := <-created:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("the client never got its create through")
	}
}

// /debug/trace streams for as long as its client stays: it is
// long-running, as watches are, and holds no read slot. With one read
// slot, a read beside an open trace stream is still served.
func TestTraceStreamHoldsNoInFlightSlot(t *testing.T) {
	s, err := apiservertest.Start(srv.Etcd, apiserver.Config{MaxRequestsInFlight: 1, AuthorizationModes: []string{apiserver.ModeAlwaysAllow}})
	require.NoError(t, err)
	t.Cleanup(s.API.Close)
	ns := s.NewNamespace(t)
	alice := s.AsUser(t, "alice")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", s.URL+"/debug/trace", nil)
	require.NoError(t, err)
	stream, err := alice.Do(req)
	require.NoError(t, err)
	defer stream.Body.Close()
	require.Equal(t, http.StatusOK, stream.StatusCode, "the trace stream is open")

	for i := range 3 {
		resp := s.DoAs(t, alice, context.Background(), "GET", "/api/v1/namespaces/"+ns+"/configmaps", "", "", nil)
		require.Equal(t, http.StatusOK, resp.Code, "read %d beside the open trace stream: %s", i, resp.Body)
	}
	assert.True(t, isLongRunning("GET", "/debug/trace"))
	assert.False(t, isLongRunning("GET", "/debug/traces"), "only the stream itself")
}
