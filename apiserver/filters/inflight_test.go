package filters_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// inflight reads apiserver_current_inflight_requests for one kind.
func inflight(t *testing.T, kind string) float64 {
	t.Helper()
	body := do(t, "GET", "/metrics", "", "").Body
	prefix := `apiserver_current_inflight_requests{request_kind="` + kind + `"} `
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, prefix); ok {
			f, err := strconv.ParseFloat(v, 64)
			require.NoError(t, err)
			return f
		}
	}
	return 0
}

// A create whose body is still arriving is a mutating request in flight;
// once answered it no longer counts. (Tests here run one at a time, so no
// other mutating request is in flight meanwhile.)
func TestInflightRequestsAreCounted(t *testing.T) {
	ns := newNamespace(t)
	// A handler's deferred bookkeeping may finish just after its client has
	// the reply: wait for the count to settle rather than read it once.
	require.Eventually(t, func() bool { return inflight(t, "mutating") == 0 }, 20*time.Second, 10*time.Millisecond)
	release := holdCreate(t, srv, srv.HTTPClient(), ns)
	require.Eventually(t, func() bool { return inflight(t, "mutating") == 1 }, 20*time.Second, 10*time.Millisecond)

	require.Equal(t, http.StatusCreated, release())
	require.Eventually(t, func() bool { return inflight(t, "mutating") == 0 }, 20*time.Second, 10*time.Millisecond)
}
