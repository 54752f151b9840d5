package chaos

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
)

// heapWatcher samples the live heap every few milliseconds and keeps the
// peak: a request that blows up memory and frees it again still shows.
type heapWatcher struct {
	peak atomic.Uint64
	stop chan struct{}
	done chan struct{}
}

func watchHeap() *heapWatcher {
	h := &heapWatcher{stop: make(chan struct{}), done: make(chan struct{})}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	go func() {
		defer close(h.done)
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > h.peak.Load() {
				h.peak.Store(v)
			}
			select {
			case <-h.stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return h
}

func (h *heapWatcher) finish() uint64 { close(h.stop); <-h.done; return h.peak.Load() }

func heapNow() uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// statusCode is the HTTP status of a DoRaw result: 200 for success.
func statusCode(t *testing.T, err error) int {
	if err == nil {
		return 200
	}
	var se *api.StatusError
	require.True(t, errors.As(err, &se), "not an HTTP answer: %v", err)
	return int(se.ErrStatus.Code)
}

// Bodies built to hurt: deep nesting in JSON, YAML and merge patches, a
// YAML alias bomb, huge strings, a 64 MiB body, 10k-operation JSON
// patches, a protobuf length that lies. Each gets a 4xx (or, where the
// request is legal, succeeds: 10k patch operations are allowed), never a 5xx; nothing rejected is stored; the
// apiserver stays ready; and the heap (the whole cluster runs in this
// process) never grows by more than 1 GiB.
func TestHostileBodiesGet4xxAndLeaveNoTrace(t *testing.T) {
	ctx := testCtx(t, 5*time.Minute)
	c, err := cluster.Start(ctx, cluster.Options{Logger: slog.Default()})
	require.NoError(t, err)
	t.Cleanup(c.Stop)
	const ns = "default"
	cms := "/api/v1/namespaces/" + ns + "/configmaps"
	_, err = client.For[*api.ConfigMap](c.Client).Namespace(ns).Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "target"}, Data: map[string]string{"x": "y"}}, client.CreateOptions{})
	require.NoError(t, err)

	deep := 100000
	var ops strings.Builder
	jsonOps := func(n int) []byte {
		ops.Reset()
		ops.WriteString("[")
		for i := range n {
			if i > 0 {
				ops.WriteString(",")
			}
			fmt.Fprintf(&ops, `{"op":"add","path":"/data/k%d","value":"v"}`, i)
		}
		ops.WriteString("]")
		return []byte(ops.String())
	}
	laughs := "a: &a [x,x,x,x,x,x,x,x,x]\n"
	for i := 'b'; i <= 'j'; i++ {
		prev := string(i - 1)
		laughs += fmt.Sprintf("%c: &%c [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", i, i, prev, prev, prev, prev, prev, prev, prev, prev, prev)
	}
	cases := []struct {
		name, verb, path, contentType string
		body                          []byte
		// legal: the request must succeed; else it must be a 4xx.
		legal bool
		// created: the name a wrongly accepted create would have stored.
		created string
	}{
		{name: "JSON nested 100k deep", verb: "POST", path: cms, contentType: "application/json",
			body: []byte(`{"metadata":{"name":"deep-json"},"data":` + strings.Repeat(`{"a":`, deep) + `1` + strings.Repeat("}", deep) + `}`), created: "deep-json"},
		{name: "JSON array nested 100k deep", verb: "POST", path: cms, contentType: "application/json",
			body: []byte(`{"metadata":{"name":"deep-arr"},"x":` + strings.Repeat("[", deep) + strings.Repeat("]", deep) + `}`), created: "deep-arr"},
		{name: "YAML nested 100k deep", verb: "POST", path: cms, contentType: "application/yaml",
			body: []byte("metadata:\n  name: deep-yaml\ndata: " + strings.Repeat("[", deep) + strings.Repeat("]", deep) + "\n"), created: "deep-yaml"},
		{name: "YAML alias bomb", verb: "POST", path: cms, contentType: "application/yaml",
			body: []byte("metadata:\n  name: laughs\n" + laughs + "data:\n  k: *j\n"), created: "laughs"},
		{name: "3 MiB data value", verb: "POST", path: cms, contentType: "application/json",
			body: []byte(`{"metadata":{"name":"huge-value"},"data":{"k":"` + strings.Repeat("x", 3<<20) + `"}}`), created: "huge-value"},
		{name: "64 MiB body", verb: "POST", path: cms, contentType: "application/json",
			body: []byte(`{"metadata":{"name":"huge-body"},"data":{"k":"` + strings.Repeat("x", 64<<20) + `"}}`), created: "huge-body"},
		{name: "1 MiB name", verb: "POST", path: cms, contentType: "application/json",
			body: []byte(`{"metadata":{"name":"` + strings.Repeat("n", 1<<20) + `"}}`)},
		{name: "merge patch nested 100k deep", verb: "PATCH", path: cms + "/target", contentType: "application/merge-patch+json",
			body: []byte(`{"data":` + strings.Repeat(`{"a":`, deep) + `1` + strings.Repeat("}", deep) + `}`)},
		{name: "JSON patch of 10001 operations", verb: "PATCH", path: cms + "/target", contentType: "application/json-patch+json",
			body: jsonOps(10001)},
		{name: "JSON patch of 10000 operations", verb: "PATCH", path: cms + "/target", contentType: "application/json-patch+json",
			body: jsonOps(10000), legal: true},
		{name: "strategic merge patch of 10000 keys", verb: "PATCH", path: cms + "/target", contentType: "application/strategic-merge-patch+json",
			body: []byte(`{"data":{` + strings.TrimSuffix(strings.Repeat(`"s":"v",`, 10000), ",") + `}}`), legal: true},
		{name: "protobuf with a lying length", verb: "POST", path: cms, contentType: "application/vnd.kubernetes.protobuf",
			body: append([]byte("k8s\x00\x0a\x02v1\x12\x09ConfigMap\x1a"), 0xff, 0xff, 0xff, 0xff, 0x0f, 'x')},
	}
	base := heapNow()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := watchHeap()
			reqCtx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			_, err := c.Client.DoRawContentType(reqCtx, tc.verb, tc.path, tc.contentType, nil, tc.body)
			peak := h.finish()
			code := statusCode(t, err)
			t.Logf("%d (%s) in a heap peak of %d MiB", code, firstLine(err), peak>>20)
			require.Less(t, code, 500, "%v", err)
			if tc.legal {
				require.Equal(t, 200, code)
			} else {
				require.GreaterOrEqual(t, code, 400, "accepted")
			}
			if tc.created != "" {
				_, err := client.For[*api.ConfigMap](c.Client).Namespace(ns).Get(ctx, tc.created, client.GetOptions{})
				require.True(t, api.IsNotFound(err), "a rejected create left %s behind: %v", tc.created, err)
			}
			require.Less(t, peak, base+1<<30, "heap peaked at %d MiB (base %d MiB)", peak>>20, base>>20)
			_, err = c.Client.DoRaw(ctx, "GET", "/readyz", nil, nil)
			require.NoError(t, err, "apiserver not ready after the request")
		})
	}
}

func firstLine(err error) string {
	if err == nil {
		return "ok"
	}
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}
