package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// benchPodList is n pods as kubeloop's ReplicaSet controller, scheduler and
// kubelet leave them: labels, an owner, one container with requests and a
// port, a node, a running status with conditions.
func benchPodList(n int) *PodList {
	list := &PodList{TypeMeta: TypeMeta{APIVersion: "v1", Kind: "PodList"}, ListMeta: ListMeta{ResourceVersion: "123456"}}
	yes := true
	start := NewTime(time.Unix(1700000000, 0))
	for i := range n {
		name := fmt.Sprintf("web-7d4b9c8f6-%05d", i)
		list.Items = append(list.Items, Pod{
			ObjectMeta: ObjectMeta{
				Name: name, Namespace: "default", UID: fmt.Sprintf("0b7e1f5c-9a2d-4c1e-8f00-%012d", i),
				ResourceVersion: fmt.Sprint(1000 + i), CreationTimestamp: start,
				Labels:          map[string]string{"app": "web", "pod-template-hash": "7d4b9c8f6"},
				OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d4b9c8f6", UID: "5f1c2d3e-0000-4000-8000-000000000001", Controller: &yes, BlockOwnerDeletion: &yes}},
			},
			Spec: PodSpec{
				Containers: []Container{{
					Name: "web", Image: "nginx:1.27",
					Ports:                  []ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: ProtocolTCP}},
					Resources:              ResourceRequirements{Requests: ResourceList{ResourceCPU: "100m", ResourceMemory: "128Mi"}},
					TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File", ImagePullPolicy: PullIfNotPresent,
				}},
				RestartPolicy: RestartPolicyAlways, DNSPolicy: "ClusterFirst", SchedulerName: DefaultSchedulerName,
				NodeName: fmt.Sprintf("node-%d", i%100),
			},
			Status: PodStatus{
				Phase: PodRunning, HostIP: "10.0.0.1", PodIP: "10.244.1.7", StartTime: &start, QOSClass: "Burstable",
				Conditions: []PodCondition{
					{Type: "PodScheduled", Status: ConditionTrue, LastTransitionTime: start},
					{Type: "Initialized", Status: ConditionTrue, LastTransitionTime: start},
					{Type: "Ready", Status: ConditionTrue, LastTransitionTime: start},
				},
			},
		})
	}
	return list
}

// BenchmarkPodList10kProtobuf encodes and decodes a list of 10,000 pods
// with the protobuf codec ("kubeloop") and with the JSON codec ("json",
// encoding/json as api.Encode and api.Decode use it), so benchratio prints
// protobuf's cost as a ratio of JSON's. B/body is the size of one body.
func BenchmarkPodList10kProtobuf(b *testing.B) {
	list := benchPodList(10000)
	pb, err := EncodeProtobuf(list)
	require.NoError(b, err)
	js, err := json.Marshal(list)
	require.NoError(b, err)

	b.Run("encode/kubeloop", func(b *testing.B) {
		for b.Loop() {
			if _, err := EncodeProtobuf(list); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(pb)), "B/body")
	})
	b.Run("encode/json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(list); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(js)), "B/body")
	})
	b.Run("decode/kubeloop", func(b *testing.B) {
		for b.Loop() {
			var out PodList
			if _, err := DecodeProtobuf(pb, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/json", func(b *testing.B) {
		for b.Loop() {
			var out PodList
			if err := json.Unmarshal(js, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPodWatch10kProtobuf writes and reads a watch stream of 10,000
// MODIFIED events, one pod each: protobuf frames ("kubeloop") against the
// JSON stream of one {"type","object"} document per event ("json").
func BenchmarkPodWatch10kProtobuf(b *testing.B) {
	pods := benchPodList(10000).Items
	for i := range pods {
		pods[i].TypeMeta = TypeMeta{APIVersion: "v1", Kind: "Pod"}
	}
	var pbStream, jsStream bytes.Buffer
	writePB := func(w *bytes.Buffer) {
		enc := NewProtobufWatchEncoder(w)
		for i := range pods {
			if err := enc.Encode(Modified, &pods[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
	writeJSON := func(w *bytes.Buffer) {
		enc := json.NewEncoder(w)
		for i := range pods {
			ev := struct {
				Type   EventType `json:"type"`
				Object *Pod      `json:"object"`
			}{Modified, &pods[i]}
			if err := enc.Encode(ev); err != nil {
				b.Fatal(err)
			}
		}
	}
	writePB(&pbStream)
	writeJSON(&jsStream)

	b.Run("encode/kubeloop", func(b *testing.B) {
		var w bytes.Buffer
		for b.Loop() {
			w.Reset()
			writePB(&w)
		}
	})
	b.Run("encode/json", func(b *testing.B) {
		var w bytes.Buffer
		for b.Loop() {
			w.Reset()
			writeJSON(&w)
		}
	})
	b.Run("decode/kubeloop", func(b *testing.B) {
		for b.Loop() {
			dec := NewProtobufWatchDecoder(bytes.NewReader(pbStream.Bytes()))
			for range pods {
				_, body, err := dec.Next()
				if err != nil {
					b.Fatal(err)
				}
				var pod Pod
				if _, err := DecodeProtobuf(body, &pod); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("decode/json", func(b *testing.B) {
		for b.Loop() {
			dec := json.NewDecoder(bytes.NewReader(jsStream.Bytes()))
			for range pods {
				var ev struct {
					Type   EventType `json:"type"`
					Object Pod       `json:"object"`
				}
				if err := dec.Decode(&ev); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
