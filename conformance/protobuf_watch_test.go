package conformance

import (
	"bytes"
	"encoding/hex"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/util/framer"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	restwatch "k8s.io/client-go/rest/watch"

	"kubeloop/api"
)

// A protobuf watch stream, as kube-apiserver writes one and as client-go
// reads one: length-delimited frames (apimachinery's framer) of
// metav1.WatchEvent written by the raw serializer, each carrying its object
// as a whole protobuf body.

type watchEvent struct {
	typ watch.EventType
	obj runtime.Object
}

// k8sWatchEvents are the events both sides write: pods with every field
// set, and an ERROR carrying a Status.
func k8sWatchEvents() []watchEvent {
	pod := func() runtime.Object {
		return withKind(fillObject[corev1.Pod](), schema.GroupVersionKind{Version: "v1", Kind: "Pod"})
	}
	status := withKind(&metav1.Status{Status: metav1.StatusFailure, Message: "too old resource version: 1 (5)",
		Reason: metav1.StatusReasonExpired, Code: 410}, schema.GroupVersionKind{Version: "v1", Kind: "Status"})
	return []watchEvent{{watch.Added, pod()}, {watch.Modified, pod()}, {watch.Deleted, pod()}, {watch.Error, status}}
}

// k8sWatchStream is the stream Kubernetes' own code writes for events.
func k8sWatchStream(t testing.TB, events []watchEvent) []byte {
	var stream bytes.Buffer
	frames := framer.NewLengthDelimitedFrameWriter(&stream)
	for _, e := range events {
		var body bytes.Buffer
		require.NoError(t, k8sProtobuf.Encode(e.obj, &body))
		ev := metav1.WatchEvent{Type: string(e.typ), Object: runtime.RawExtension{Raw: body.Bytes()}}
		b, err := ev.Marshal()
		require.NoError(t, err)
		_, err = frames.Write(b)
		require.NoError(t, err)
	}
	return stream.Bytes()
}

// ourObject reads a Kubernetes object into kubeloop's type through
// kubeloop's own decoder.
func ourObject(t testing.TB, obj runtime.Object) any {
	var body bytes.Buffer
	require.NoError(t, k8sProtobuf.Encode(obj, &body))
	var ours any
	switch obj.(type) {
	case *corev1.Pod:
		ours = &api.Pod{}
	case *metav1.Status:
		ours = &api.Status{}
	default:
		t.Fatalf("no kubeloop type for %T", obj)
	}
	_, err := api.DecodeProtobuf(body.Bytes(), ours)
	require.NoError(t, err)
	return ours
}

func TestProtobufWatchStreamIsKubernetes(t *testing.T) {
	events := k8sWatchEvents()
	want := k8sWatchStream(t, events)

	var got bytes.Buffer
	enc := api.NewProtobufWatchEncoder(&got)
	for _, e := range events {
		require.NoError(t, enc.Encode(api.EventType(e.typ), ourObject(t, e.obj)))
	}
	if !bytes.Equal(want, got.Bytes()) {
		i := firstDifference(want, got.Bytes())
		t.Fatalf("kubeloop's stream differs from Kubernetes' at offset %d of %d:\nk8s      %s\nkubeloop %s",
			i, len(want), hex.EncodeToString(want[i:min(i+32, len(want))]), hex.EncodeToString(got.Bytes()[i:min(i+32, got.Len())]))
	}
}

// TestClientGoReadsOurProtobufWatchStream decodes kubeloop's stream the
// way client-go's watch does (rest/watch.Decoder over the framer and the
// raw serializer, the object by its envelope's kind).
func TestClientGoReadsOurProtobufWatchStream(t *testing.T) {
	events := k8sWatchEvents()
	var stream bytes.Buffer
	enc := api.NewProtobufWatchEncoder(&stream)
	for _, e := range events {
		require.NoError(t, enc.Encode(api.EventType(e.typ), ourObject(t, e.obj)))
	}
	frames := framer.NewLengthDelimitedFrameReader(io.NopCloser(&stream))
	dec := restwatch.NewDecoder(streaming.NewDecoder(frames, protobuf.NewRawSerializer(scheme.Scheme, scheme.Scheme)), k8sProtobuf)
	for _, want := range events {
		typ, obj, err := dec.Decode()
		require.NoError(t, err)
		assert.Equal(t, want.typ, typ)
		obj.GetObjectKind().SetGroupVersionKind(want.obj.GetObjectKind().GroupVersionKind())
		if !apiequality.Semantic.DeepEqual(want.obj, obj) {
			t.Errorf("%s event: client-go reads a different object (- sent, + read):\n%s", typ, cmp.Diff(want.obj, obj, quantityByValue))
		}
	}
	_, _, err := dec.Decode()
	assert.ErrorIs(t, err, io.EOF)
}

// TestWeReadKubernetesProtobufWatchStream reads the stream Kubernetes
// writes with kubeloop's decoder.
func TestWeReadKubernetesProtobufWatchStream(t *testing.T) {
	events := k8sWatchEvents()
	dec := api.NewProtobufWatchDecoder(bytes.NewReader(k8sWatchStream(t, events)))
	for _, want := range events {
		typ, body, err := dec.Next()
		require.NoError(t, err)
		assert.Equal(t, api.EventType(want.typ), typ)
		var k8sBody bytes.Buffer
		require.NoError(t, k8sProtobuf.Encode(want.obj, &k8sBody))
		assert.Equal(t, k8sBody.Bytes(), body, "the object's body travels untouched")
		tm, err := api.DecodeProtobuf(body, nil)
		require.NoError(t, err)
		assert.Equal(t, want.obj.GetObjectKind().GroupVersionKind().Kind, tm.Kind)
	}
	_, _, err := dec.Next()
	assert.Equal(t, io.EOF, err)
}
