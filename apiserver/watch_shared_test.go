package apiserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// fixedEncoder stands in for the watch cache's shared encodings.
type fixedEncoder struct{}

func (fixedEncoder) EncodeObject(obj api.Object, enc func(api.Object) ([]byte, error)) ([]byte, error) {
	return enc(obj)
}

func TestSharedEventLineIsWhatTheEncoderWrites(t *testing.T) {
	cm := &api.ConfigMap{TypeMeta: api.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
		Data: map[string]string{"html": "<a href=\"x\">&</a>", "uni": "é\u2028"}}
	cm.Name, cm.Namespace = "c", "ns"
	for _, typ := range []api.EventType{api.Added, api.Modified, api.Deleted} {
		var want bytes.Buffer
		require.NoError(t, json.NewEncoder(&want).Encode(watchEvent{Type: typ, Object: cm}))
		got, err := appendSharedEvent(nil, fixedEncoder{}, api.WatchEvent{Type: typ, Object: cm},
			func(o api.Object) ([]byte, error) { return json.Marshal(o) })
		require.NoError(t, err)
		require.Equal(t, want.String(), string(got))
	}
}

func TestWatchersOfOneResourceGetTheSameBytes(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	rv := get(do(t, "GET", path, "", "").obj(t), "metadata", "resourceVersion").(string)
	var lines []<-chan []byte
	for range 2 {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		req, err := http.NewRequestWithContext(ctx, "GET", baseURL+path+"?watch=true&resourceVersion="+rv, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		ch := make(chan []byte, 1)
		go func() {
			sc := bufio.NewScanner(resp.Body)
			if sc.Scan() {
				ch <- append([]byte(nil), sc.Bytes()...)
			}
			close(ch)
		}()
		lines = append(lines, ch)
	}
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON("cm1", map[string]string{"a": "<b>"})).Code)
	first, second := <-lines[0], <-lines[1]
	require.NotEmpty(t, first)
	require.Equal(t, string(first), string(second))
	var ev struct {
		Type   string        `json:"type"`
		Object api.ConfigMap `json:"object"`
	}
	require.NoError(t, json.Unmarshal(first, &ev))
	require.Equal(t, "ADDED", ev.Type)
	require.Equal(t, "ConfigMap", ev.Object.Kind)
	require.Equal(t, "v1", ev.Object.APIVersion)
	require.Equal(t, "<b>", ev.Object.Data["a"])
}
