package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func watchString(t *testing.T, stream string) []api.WatchEvent {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	return collect(t, newStreamWatcher(ctx, cancel, io.NopCloser(strings.NewReader(stream)), ContentTypeJSON, newPod))
}

func podEvent(typ api.EventType, name string) string {
	return fmt.Sprintf(`{"type":%q,"object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":%q}}}`, typ, name)
}

// A pretty-printed stream has events that span many lines.
func TestStreamWatcherJoinsEventsSpanningLines(t *testing.T) {
	var stream bytes.Buffer
	for _, name := range []string{"a", "b"} {
		require.NoError(t, json.Indent(&stream, []byte(podEvent(api.Added, name)), "", "  "))
		stream.WriteString("\n")
	}
	evs := watchString(t, stream.String())
	require.Len(t, evs, 2)
	assert.Equal(t, "a", evs[0].Object.GetObjectMeta().Name)
	assert.Equal(t, "b", evs[1].Object.GetObjectMeta().Name)
}

// Events need not be newline separated: two on one line, then one per line
// again, all arrive in order.
func TestStreamWatcherSplitsEventsSharingALine(t *testing.T) {
	stream := podEvent(api.Added, "a") + podEvent(api.Added, "b") + " " + podEvent(api.Modified, "b") + "\n" +
		podEvent(api.Deleted, "a") + "\n"
	evs := watchString(t, stream)
	require.Len(t, evs, 4)
	var got []string
	for _, ev := range evs {
		got = append(got, string(ev.Type)+" "+ev.Object.GetObjectMeta().Name)
	}
	assert.Equal(t, []string{"ADDED a", "ADDED b", "MODIFIED b", "DELETED a"}, got)
}

// An event longer than the reader's buffer is still one event.
func TestStreamWatcherReadsEventsLargerThanItsBuffer(t *testing.T) {
	big := strings.Repeat("x", 100<<10)
	stream := fmt.Sprintf(`{"type":"ADDED","object":{"metadata":{"name":"big","annotations":{"a":%q}}}}`, big) + "\n" +
		podEvent(api.Added, "small") + "\n"
	evs := watchString(t, stream)
	require.Len(t, evs, 2)
	assert.Equal(t, big, evs[0].Object.GetObjectMeta().Annotations["a"])
	assert.Equal(t, "small", evs[1].Object.GetObjectMeta().Name)
}

// A wrongly typed field inside the object is reported as the object's
// problem, with the event type, and ends the watch.
func TestStreamWatcherReportsAnUndecodableObject(t *testing.T) {
	evs := watchString(t, `{"type":"MODIFIED","object":{"metadata":{"name":7}}}`+"\n"+podEvent(api.Added, "never")+"\n")
	require.Len(t, evs, 1)
	require.Equal(t, api.Error, evs[0].Type)
	assert.Contains(t, evs[0].Object.(*api.Status).Message, "unable to decode the object of a MODIFIED watch event")
}

// BenchmarkWatchDecode decodes a stream of pod events as a watch reads
// it; the reference is the classic framing (json.Decoder into a raw
// envelope, then the object), which kubeloop used before and client-go
// uses. Run: go test -run '^$' -bench WatchDecode ./client/
func BenchmarkWatchDecode(b *testing.B) {
	pod := &api.Pod{
		TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{Name: "web-7d9f8b6c5d-x2x4q", Namespace: "default", UID: "0d4c1e2a-5b8f-4f8e-9a51-3c2b1d0e9f87",
			ResourceVersion: "123456", Labels: map[string]string{"app": "web"}, CreationTimestamp: api.Now()},
		Spec: api.PodSpec{NodeName: "node-7", Containers: []api.Container{{Name: "web", Image: "nginx:1.27",
			Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": "100m", "memory": "128Mi"}}}}},
		Status: api.PodStatus{Phase: api.PodRunning, PodIP: "10.0.7.12", HostIP: "10.1.0.7", StartTime: ptrTo(api.Now()),
			Conditions: []api.PodCondition{{Type: "Ready", Status: "True", LastTransitionTime: api.Now()}}},
	}
	obj, err := json.Marshal(pod)
	require.NoError(b, err)
	line, err := json.Marshal(api.RawWatchEvent{Type: api.Modified, Object: obj})
	require.NoError(b, err)
	const events = 1000
	stream := bytes.Repeat(append(line, '\n'), events)

	b.Run("kubeloop", func(b *testing.B) {
		w := &streamWatcher{newObj: newPod}
		b.SetBytes(int64(len(stream)))
		for b.Loop() {
			f := newFrameReader(bytes.NewReader(stream))
			for range events {
				require.NoError(b, f.next(func(frame []byte) error { _, err := w.decodeEvent(frame); return err }))
			}
		}
	})
	b.Run("json.Decoder", func(b *testing.B) {
		b.SetBytes(int64(len(stream)))
		for b.Loop() {
			dec := json.NewDecoder(bytes.NewReader(stream))
			for range events {
				var raw api.RawWatchEvent
				require.NoError(b, dec.Decode(&raw))
				require.NoError(b, json.Unmarshal(raw.Object, newPod()))
			}
		}
	})
}

func ptrTo[T any](v T) *T { return &v }
