package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8sjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/framer"
	"k8s.io/client-go/kubernetes/scheme"
	restwatch "k8s.io/client-go/rest/watch"
	"k8s.io/utils/ptr"

	"kubeloop/api"
)

// The wire formats' cost, kubeloop's codecs against k8s.io/api's, on what
// an informer's initial list and its watch carry: a list of 10,000 pods and
// a stream of 10,000 pod events. Each benchmark has a protobuf and a json
// half, each run on kubeloop and on k8s.io-api, so benchratio prints
// kubeloop's cost as a ratio of Kubernetes' for each format; protobuf
// against JSON within kubeloop is api's BenchmarkPodList10kProtobuf.

const benchPods = 10000

// k8sJSON is Kubernetes' JSON serializer, as client-go and the apiserver
// use it.
var k8sJSON = k8sjson.NewSerializerWithOptions(k8sjson.DefaultMetaFactory, scheme.Scheme, scheme.Scheme, k8sjson.SerializerOptions{})

// benchPodList is 10,000 pods as a ReplicaSet, the scheduler and a kubelet
// leave them.
func benchPodList() *corev1.PodList {
	list := &corev1.PodList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PodList"}, ListMeta: metav1.ListMeta{ResourceVersion: "123456"}}
	start := metav1.NewTime(time.Unix(1700000000, 0))
	for i := range benchPods {
		list.Items = append(list.Items, corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{
				Name: fmt.Sprintf("web-7d4b9c8f6-%05d", i), Namespace: "default",
				UID: types.UID(fmt.Sprintf("0b7e1f5c-9a2d-4c1e-8f00-%012d", i)), ResourceVersion: fmt.Sprint(1000 + i),
				CreationTimestamp: start,
				Labels:            map[string]string{"app": "web", "pod-template-hash": "7d4b9c8f6"},
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d4b9c8f6",
					UID: "5f1c2d3e-0000-4000-8000-000000000001", Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}},
			},
			Spec: corev1.PodSpec{
				Containers: []corev1.Container{{
					Name: "web", Image: "nginx:1.27",
					Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
					Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
						corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")}},
					TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File", ImagePullPolicy: corev1.PullIfNotPresent,
				}},
				RestartPolicy: corev1.RestartPolicyAlways, DNSPolicy: corev1.DNSClusterFirst, SchedulerName: "default-scheduler",
				NodeName: fmt.Sprintf("node-%d", i%100),
			},
			Status: corev1.PodStatus{
				Phase: corev1.PodRunning, HostIP: "10.0.0.1", PodIP: "10.244.1.7", StartTime: &start, QOSClass: corev1.PodQOSBurstable,
				Conditions: []corev1.PodCondition{
					{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: start},
					{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: start},
					{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: start},
				},
			},
		})
	}
	return list
}

func encodeK8s(b *testing.B, enc runtime.Encoder, obj runtime.Object) []byte {
	var buf bytes.Buffer
	require.NoError(b, enc.Encode(obj, &buf))
	return buf.Bytes()
}

func BenchmarkPodList10kEncode(b *testing.B) {
	k8sList := benchPodList()
	var ours api.PodList
	_, err := api.DecodeProtobuf(encodeK8s(b, k8sProtobuf, k8sList), &ours)
	require.NoError(b, err)
	var buf bytes.Buffer
	b.Run("protobuf/kubeloop", func(b *testing.B) {
		for b.Loop() {
			if _, err := api.EncodeProtobuf(&ours); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("protobuf/k8s.io-api", func(b *testing.B) {
		for b.Loop() {
			buf.Reset()
			require.NoError(b, k8sProtobuf.Encode(k8sList, &buf))
		}
	})
	b.Run("json/kubeloop", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(&ours); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json/k8s.io-api", func(b *testing.B) {
		for b.Loop() {
			buf.Reset()
			require.NoError(b, k8sJSON.Encode(k8sList, &buf))
		}
	})
}

func BenchmarkPodList10kDecode(b *testing.B) {
	k8sList := benchPodList()
	pb, js := encodeK8s(b, k8sProtobuf, k8sList), encodeK8s(b, k8sJSON, k8sList)
	b.Run("protobuf/kubeloop", func(b *testing.B) {
		for b.Loop() {
			var out api.PodList
			if _, err := api.DecodeProtobuf(pb, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("protobuf/k8s.io-api", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := k8sProtobuf.Decode(pb, nil, &corev1.PodList{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json/kubeloop", func(b *testing.B) {
		for b.Loop() {
			var out api.PodList
			if err := json.Unmarshal(js, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json/k8s.io-api", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := k8sJSON.Decode(js, nil, &corev1.PodList{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// The watch streams: kube-apiserver encodes each event's object with the
// ordinary serializer and the event with the raw one (protobuf) or the
// same one (JSON), framed; client-go reads them back with rest/watch's
// decoder. kubeloop writes with its watch encoder (protobuf) or one JSON
// document per event, and reads the same way.

func k8sWatchWrite(b *testing.B, w io.Writer, pods []corev1.Pod, protobufFormat bool) {
	events, embedded := streaming.NewEncoder(w, k8sJSON), runtime.Encoder(k8sJSON)
	if protobufFormat {
		events = streaming.NewEncoder(framer.NewLengthDelimitedFrameWriter(w), protobuf.NewRawSerializer(scheme.Scheme, scheme.Scheme))
		embedded = k8sProtobuf
	}
	var body bytes.Buffer
	for i := range pods {
		body.Reset()
		require.NoError(b, embedded.Encode(&pods[i], &body))
		require.NoError(b, events.Encode(&metav1.WatchEvent{Type: "MODIFIED", Object: runtime.RawExtension{Raw: body.Bytes()}}))
	}
}

func k8sWatchRead(b *testing.B, stream []byte, protobufFormat bool) {
	r := io.NopCloser(bytes.NewReader(stream))
	var dec *restwatch.Decoder
	if protobufFormat {
		dec = restwatch.NewDecoder(streaming.NewDecoder(framer.NewLengthDelimitedFrameReader(r), protobuf.NewRawSerializer(scheme.Scheme, scheme.Scheme)), k8sProtobuf)
	} else {
		dec = restwatch.NewDecoder(streaming.NewDecoder(k8sjson.Framer.NewFrameReader(r), k8sJSON), k8sJSON)
	}
	for range benchPods {
		if _, _, err := dec.Decode(); err != nil {
			b.Fatal(err)
		}
	}
}

// jsonWatchEvent is one document of kubeloop's JSON watch stream.
type jsonWatchEvent struct {
	Type   api.EventType `json:"type"`
	Object *api.Pod      `json:"object"`
}

func ourWatchWrite(b *testing.B, w io.Writer, pods []api.Pod, protobufFormat bool) {
	pbEnc, jsEnc := api.NewProtobufWatchEncoder(w), json.NewEncoder(w)
	for i := range pods {
		var err error
		if protobufFormat {
			err = pbEnc.Encode(api.Modified, &pods[i])
		} else {
			err = jsEnc.Encode(jsonWatchEvent{api.Modified, &pods[i]})
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

func ourWatchRead(b *testing.B, stream []byte, protobufFormat bool) {
	pbDec, jsDec := api.NewProtobufWatchDecoder(bytes.NewReader(stream)), json.NewDecoder(bytes.NewReader(stream))
	for range benchPods {
		if protobufFormat {
			_, body, err := pbDec.Next()
			if err != nil {
				b.Fatal(err)
			}
			var pod api.Pod
			if _, err := api.DecodeProtobuf(body, &pod); err != nil {
				b.Fatal(err)
			}
		} else if err := jsDec.Decode(&jsonWatchEvent{Object: &api.Pod{}}); err != nil {
			b.Fatal(err)
		}
	}
}

// watchBenchPods returns the pods of benchPodList as Kubernetes' and as
// kubeloop's objects, each with its kind set.
func watchBenchPods(b *testing.B) ([]corev1.Pod, []api.Pod) {
	k8sPods := benchPodList().Items
	ours := make([]api.Pod, len(k8sPods))
	for i := range k8sPods {
		withKind(&k8sPods[i], schema.GroupVersionKind{Version: "v1", Kind: "Pod"})
		_, err := api.DecodeProtobuf(encodeK8s(b, k8sProtobuf, &k8sPods[i]), &ours[i])
		require.NoError(b, err)
	}
	return k8sPods, ours
}

func BenchmarkPodWatch10kEncode(b *testing.B) {
	k8sPods, ours := watchBenchPods(b)
	var w bytes.Buffer
	for _, format := range []string{"protobuf", "json"} {
		pbFormat := format == "protobuf"
		b.Run(format+"/kubeloop", func(b *testing.B) {
			for b.Loop() {
				w.Reset()
				ourWatchWrite(b, &w, ours, pbFormat)
			}
		})
		b.Run(format+"/k8s.io-api", func(b *testing.B) {
			for b.Loop() {
				w.Reset()
				k8sWatchWrite(b, &w, k8sPods, pbFormat)
			}
		})
	}
}

func BenchmarkPodWatch10kDecode(b *testing.B) {
	k8sPods, _ := watchBenchPods(b)
	for _, format := range []string{"protobuf", "json"} {
		pbFormat := format == "protobuf"
		var stream bytes.Buffer
		k8sWatchWrite(b, &stream, k8sPods, pbFormat)
		b.Run(format+"/kubeloop", func(b *testing.B) {
			for b.Loop() {
				ourWatchRead(b, stream.Bytes(), pbFormat)
			}
		})
		b.Run(format+"/k8s.io-api", func(b *testing.B) {
			for b.Loop() {
				k8sWatchRead(b, stream.Bytes(), pbFormat)
			}
		})
	}
}
