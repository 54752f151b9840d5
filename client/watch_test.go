package client

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func newPod() api.Object { return &api.Pod{} }

// collect reads events until the channel closes (or fails the test after a
// generous deadline).
func collect(t *testing.T, w api.Watcher) []api.WatchEvent {
	t.Helper()
	var out []api.WatchEvent
	deadline := time.After(20 * time.Second)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return out
			}
			out = append(out, ev)
		case <-deadline:
			t.Fatal("watch result channel never closed")
		}
	}
}

func TestStreamWatcherDecodesEveryEventType(t *testing.T) {
	stream := strings.Join([]string{
		`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"10"}}}`,
		`{"type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"11"},"spec":{"nodeName":"n1","containers":null}}}`,
		`{"type":"DELETED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"12"}}}`,
		`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"13","annotations":{"k8s.io/initial-events-end":"true"}}}}`,
		`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (13)","reason":"Expired","code":410}}`,
	}, "\n") + "\n"
	ctx, cancel := context.WithCancel(context.Background())
	w := newStreamWatcher(ctx, cancel, io.NopCloser(strings.NewReader(stream)), ContentTypeJSON, newPod)
	evs := collect(t, w)
	require.Len(t, evs, 5)

	assert.Equal(t, api.Added, evs[0].Type)
	assert.Equal(t, "a", evs[0].Object.(*api.Pod).Name)
	assert.Equal(t, api.Modified, evs[1].Type)
	assert.Equal(t, "n1", evs[1].Object.(*api.Pod).Spec.NodeName)
	assert.Equal(t, api.Deleted, evs[2].Type)
	assert.Equal(t, "12", evs[2].Object.GetObjectMeta().ResourceVersion)

	assert.Equal(t, api.Bookmark, evs[3].Type)
	bm, ok := evs[3].Object.(*api.Pod)
	require.True(t, ok, "a bookmark is an object of the watched kind")
	assert.Equal(t, "13", bm.ResourceVersion)
	assert.Equal(t, "true", bm.Annotations[api.InitialEventsAnnotation])

	assert.Equal(t, api.Error, evs[4].Type)
	st, ok := evs[4].Object.(*api.Status)
	require.True(t, ok, "an ERROR carries a Status")
	assert.True(t, api.IsExpired(&api.StatusError{ErrStatus: *st}))
}

func TestStreamWatcherClosesOnPartialFinalLine(t *testing.T) {
	stream := `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}}` + "\n" +
		`{"type":"ADDED","object":{"kind":"Pod","apiV`
	ctx, cancel := context.WithCancel(context.Background())
	w := newStreamWatcher(ctx, cancel, io.NopCloser(strings.NewReader(stream)), ContentTypeJSON, newPod)
	evs := collect(t, w)
	require.Len(t, evs, 1, "the cut event is dropped and the watch simply ends")
	assert.Equal(t, "a", evs[0].Object.GetObjectMeta().Name)
}

func TestStreamWatcherReportsGarbageAsErrorEvent(t *testing.T) {
	stream := `{"type":"ADDED","object":{"metadata":{"name":"a"}}}` + "\n" + `not json` + "\n"
	ctx, cancel := context.WithCancel(context.Background())
	w := newStreamWatcher(ctx, cancel, io.NopCloser(strings.NewReader(stream)), ContentTypeJSON, newPod)
	evs := collect(t, w)
	require.Len(t, evs, 2)
	assert.Equal(t, api.Error, evs[1].Type)
	assert.Contains(t, evs[1].Object.(*api.Status).Message, "unable to decode an event from the watch stream")
}

func TestStreamWatcherRejectsUnknownEventType(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	w := newStreamWatcher(ctx, cancel, io.NopCloser(strings.NewReader(`{"type":"RENAMED","object":{}}`+"\n")), ContentTypeJSON, newPod)
	evs := collect(t, w)
	require.Len(t, evs, 1)
	assert.Equal(t, api.Error, evs[0].Type)
}

func TestStopUnblocksAWatchNobodyReads(t *testing.T) {
	// The server sends events and then keeps the stream open forever.
	pr, pw := io.Pipe()
	go func() {
		for i := 0; i < 3; i++ {
			if _, err := io.WriteString(pw, `{"type":"ADDED","object":{"metadata":{"name":"a"}}}`+"\n"); err != nil {
				return
			}
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	w := newStreamWatcher(ctx, cancel, pr, ContentTypeJSON, newPod)
	// The reader is now blocked sending the first event (nobody receives).
	w.Stop()
	w.Stop() // idempotent
	for range w.ResultChan() {
	}
	_, err := pw.Write([]byte("x"))
	assert.ErrorIs(t, err, io.ErrClosedPipe, "Stop closed the body")
}

func TestWatchOverHTTPEndsOnContextCancel(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "true", r.URL.Query().Get("watch"))
		assert.Equal(t, "true", r.URL.Query().Get("allowWatchBookmarks"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}}`+"\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	c, err := NewForConfig(&Config{Host: srv.URL, Timeout: time.Millisecond})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	w, err := For[*api.Pod](c).Namespace("ns").Watch(ctx, ListOptions{AllowWatchBookmarks: true})
	require.NoError(t, err, "Config.Timeout does not apply to watches")
	select {
	case ev := <-w.ResultChan():
		assert.Equal(t, "a", ev.Object.GetObjectMeta().Name)
	case <-time.After(20 * time.Second):
		t.Fatal("no event")
	}
	cancel()
	assert.Empty(t, collect(t, w))
}

func TestWatchRejectedByServerReturnsStatusError(t *testing.T) {
	srv, _ := recordingServer(t, http.StatusGone,
		`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","message":"too old","code":410}`)
	c, err := NewForConfig(&Config{Host: srv.URL})
	require.NoError(t, err)
	_, err = For[*api.Pod](c).Watch(context.Background(), ListOptions{ResourceVersion: "1"})
	assert.True(t, api.IsExpired(err), "%v", err)
}

// protobufStream writes the frames of a protobuf watch stream, as the
// apiserver does.
func protobufStream(t *testing.T, events ...api.WatchEvent) []byte {
	t.Helper()
	var b []byte
	for _, ev := range events {
		var err error
		b, err = api.AppendProtobufWatchFrame(b, ev.Type, ev.Object)
		require.NoError(t, err)
	}
	return b
}

func TestStreamWatcherDecodesProtobufFrames(t *testing.T) {
	podAt := func(name, rv string) *api.Pod {
		return &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: name, ResourceVersion: rv}}
	}
	bookmark := podAt("", "13")
	bookmark.Annotations = map[string]string{api.InitialEventsAnnotation: "true"}
	expired := api.NewResourceExpired("too old resource version: 1 (13)").Status()
	stream := protobufStream(t,
		api.WatchEvent{Type: api.Added, Object: podAt("a", "10")},
		api.WatchEvent{Type: api.Deleted, Object: podAt("a", "12")},
		api.WatchEvent{Type: api.Bookmark, Object: bookmark},
		api.WatchEvent{Type: api.Error, Object: &expired},
	)
	ctx, cancel := context.WithCancel(context.Background())
	w := newStreamWatcher(ctx, cancel, io.NopCloser(bytes.NewReader(stream)), api.ContentTypeProtobuf+";stream=watch", newPod)
	evs := collect(t, w)
	require.Len(t, evs, 4)
	assert.Equal(t, api.WatchEvent{Type: api.Added, Object: podAt("a", "10")}, evs[0])
	assert.Equal(t, api.WatchEvent{Type: api.Deleted, Object: podAt("a", "12")}, evs[1])
	assert.Equal(t, api.WatchEvent{Type: api.Bookmark, Object: bookmark}, evs[2])
	require.Equal(t, api.Error, evs[3].Type)
	st, ok := evs[3].Object.(*api.Status)
	require.True(t, ok, "an ERROR carries a Status")
	assert.True(t, api.IsExpired(&api.StatusError{ErrStatus: *st}), "%+v", st)
}

func TestStreamWatcherEndsOnAProtobufFrameCutShort(t *testing.T) {
	pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: "a"}}
	stream := protobufStream(t, api.WatchEvent{Type: api.Added, Object: pod}, api.WatchEvent{Type: api.Added, Object: pod})
	ctx, cancel := context.WithCancel(context.Background())
	w := newStreamWatcher(ctx, cancel, io.NopCloser(bytes.NewReader(stream[:len(stream)-3])), api.ContentTypeProtobuf+";stream=watch", newPod)
	evs := collect(t, w)
	require.Len(t, evs, 1, "the cut event is dropped and the watch simply ends")
	assert.Equal(t, "a", evs[0].Object.GetObjectMeta().Name)
}

func TestStreamWatcherReportsAnUndecodableProtobufEvent(t *testing.T) {
	// A frame whose event is fine but whose object is not a protobuf body.
	frame := []byte{0, 0, 0, 13, 0x0a, 5, 'A', 'D', 'D', 'E', 'D', 0x12, 4, 0x0a, 2, '{', '}'}
	requireOneUndecodableAdded(t, frame)
}

// requireOneUndecodableAdded requires that a protobuf stream of frame gives
// exactly one event: the ERROR saying its ADDED object would not decode.
func requireOneUndecodableAdded(t *testing.T, frame []byte) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := newStreamWatcher(ctx, cancel, io.NopCloser(bytes.NewReader(frame)), api.ContentTypeProtobuf+";stream=watch", newPod)
	evs := collect(t, w)
	require.Len(t, evs, 1)
	assert.Equal(t, api.Error, evs[0].Type)
	assert.Contains(t, evs[0].Object.(*api.Status).Message, "unable to decode the object of a ADDED watch event")
}

func TestStreamWatcherReportsAProtobufObjectCutShortInsideItsFrame(t *testing.T) {
	// The frame is whole but the object inside it is not: the decoder's
	// unexpected EOF is an ERROR event, not the end of the stream.
	body, err := api.EncodeProtobuf(&api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: "a", Namespace: "default"}})
	require.NoError(t, err)
	body = body[:len(body)-3]
	event := append([]byte{0x0a, 5, 'A', 'D', 'D', 'E', 'D', 0x12, byte(len(body) + 2), 0x0a, byte(len(body))}, body...)
	requireOneUndecodableAdded(t, append([]byte{0, 0, 0, byte(len(event))}, event...))
}
