package filters_test

import (
	"io"
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
	pr, pw := io.Pipe()
	req, err := http.NewRequest("POST", srv.URL+"/api/v1/namespaces/"+ns+"/configmaps", pr)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	done := make(chan int, 1)
	go func() {
		resp, err := srv.HTTPClient().Do(req)
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	_, err = pw.Write([]byte(`{"apiVersion":"v1","kind":"ConfigMap",`))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return inflight(t, "mutating") == 1 }, 20*time.Second, 10*time.Millisecond)

	_, err = pw.Write([]byte(`"metadata":{"name":"held"}}`))
	require.NoError(t, err)
	require.NoError(t, pw.Close())
	require.Equal(t, http.StatusCreated, <-done)
	require.Eventually(t, func() bool { return inflight(t, "mutating") == 0 }, 20*time.Second, 10*time.Millisecond)
}
