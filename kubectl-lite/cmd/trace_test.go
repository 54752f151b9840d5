package cmd

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// TestTraceStreamsTheServerHopsOfAScale runs `trace rs web` while the
// ReplicaSet is scaled. The test cluster is API-only, so the hops are the
// apiserver's, etcd's and the watch cache's; the components' own hops are
// tested with a whole cluster in cmd/kubeloop.
func TestTraceStreamsTheServerHopsOfAScale(t *testing.T) {
	ns := newNamespace(t)
	mustKL(t, ns, rsManifest("web", 1), "apply", "-f", "-")
	mustKL(t, ns, rsManifest("other", 1), "apply", "-f", "-")
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan result, 1)
	go func() { done <- klContext(ctx, t, ns, "", out, "trace", "rs", "web") }()

	// The stream starts when the server has subscribed: scale until the
	// first line shows (each scale is a new replicas count, so a write).
	scaled := regexp.MustCompile(`(?m)^\s+1\s+\+[0-9.]+\s+apiserver\s+apiserver received\s+replicasets ` + ns + `/web\s+-\s+PATCH replicasets/scale from kubectl-lite`)
	n := 1
	defer func() {
		if t.Failed() {
			t.Log(out.String())
		}
	}()
	require.Eventually(t, func() bool {
		n++
		mustKL(t, ns, "", "scale", "rs", "other", fmt.Sprintf("--replicas=%d", n))
		mustKL(t, ns, "", "scale", "rs", "web", fmt.Sprintf("--replicas=%d", n))
		return scaled.MatchString(out.String())
	}, 20*time.Second, 50*time.Millisecond)
	// Steps 2 and 3 may print in either order: the store reports the
	// commit when its transaction returns, and the watch cache may have
	// dispatched the event a moment before.
	committed := regexp.MustCompile(`(?m)^\s+2\s+\+[0-9.]+\s+etcd\s+etcd committed\s+replicasets ` + ns + `/web\s+[0-9]+\s+update at revision`)
	dispatched := regexp.MustCompile(`(?m)^\s+3\s+\+[0-9.]+\s+watch cache\s+watch cache dispatched\s+replicasets ` + ns + `/web\s+[0-9]+\s+MODIFIED to`)
	require.Eventually(t, func() bool {
		s := out.String()
		return committed.MatchString(s) && dispatched.MatchString(s)
	}, 20*time.Second, 10*time.Millisecond)
	cancel()
	r := <-done
	assert.Equal(t, 0, r.code, r.err)
	assert.True(t, strings.HasPrefix(r.out, "step  +ms"), r.out)
	assert.NotContains(t, r.out, "/other", "only the named ReplicaSet and what it controls")
}

func TestTraceTakesOneObject(t *testing.T) {
	r := kl(t, "default", "", "trace", "rs")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.err, "NAME")
}

func TestTraceEndpointRefusesAPartialObjectAndOtherVerbs(t *testing.T) {
	ctx := context.Background()
	_, err := testCluster.Client.Stream(ctx, "/debug/trace", url.Values{"kind": {"ReplicaSet"}, "namespace": {"default"}})
	require.Error(t, err)
	assert.True(t, api.IsBadRequest(err), "%v", err)
	assert.Contains(t, err.Error(), "kind, resource and name go together")

	_, err = testCluster.Client.DoRaw(ctx, "POST", "/debug/trace", nil, []byte("{}"))
	require.Error(t, err)
	assert.True(t, api.IsMethodNotSupported(err), "%v", err)
}
