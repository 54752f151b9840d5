package api

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runningPodJSON is what a kubelet's status write looks like.
func runningPodJSON(t testing.TB) []byte {
	started := true
	now := NewTime(time.Now())
	pod := &Pod{
		TypeMeta: TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: ObjectMeta{Name: "web-1", Namespace: "default", UID: "u-1", ResourceVersion: "42",
			Labels: map[string]string{"app": "web"}, CreationTimestamp: now,
			OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "u-0"}},
			// A kubelet writes back the managedFields it read: the
			// scan must take their field sets as any JSON.
			ManagedFields: []ManagedFieldsEntry{{Manager: "kubelet", Operation: "Update", APIVersion: "v1", Time: &now,
				FieldsType: "FieldsV1", Subresource: "status",
				FieldsV1: &FieldsV1{Raw: []byte(`{"f:status":{"f:phase":{},"f:conditions":{"k:{\"type\":\"Ready\"}":{".":{}}}}}`)}}}},
		Spec: PodSpec{NodeName: "node-1", Containers: []Container{{Name: "web", Image: "nginx",
			Resources: ResourceRequirements{Requests: ResourceList{ResourceCPU: MustParseQuantity("10m")}}}}},
		Status: PodStatus{Phase: PodRunning, HostIP: "10.0.0.1", PodIP: "10.244.0.2", StartTime: &now,
			Conditions: []PodCondition{{Type: PodReady, Status: ConditionTrue, LastTransitionTime: now}},
			ContainerStatuses: []ContainerStatus{{Name: "web", Ready: true, Started: &started,
				State: ContainerState{Running: &ContainerStateRunning{StartedAt: now}}}}},
	}
	b, err := json.Marshal(pod)
	require.NoError(t, err)
	return b
}

func TestCleanBodyAcceptsWhatTheAPIWrites(t *testing.T) {
	body := runningPodJSON(t)
	require.True(t, cleanBody(body, reflect.TypeFor[Pod]()))

	var fast, plain Pod
	unknown, dups, err := DecodeStrict(body, &fast)
	require.NoError(t, err)
	assert.Empty(t, unknown)
	assert.Empty(t, dups)
	require.NoError(t, json.Unmarshal(body, &plain))
	assert.Equal(t, plain, fast)
}

func TestCleanBodyLeavesEveryDoubtToTheSlowPath(t *testing.T) {
	for name, body := range map[string]string{
		"unknown field":       `{"metadata":{"name":"a","bogus":1}}`,
		"case mismatch":       `{"Data":{"a":"b"}}`,
		"duplicate field":     `{"metadata":{"name":"a","name":"b"}}`,
		"duplicate map key":   `{"data":{"k":"v","k":"w"}}`,
		"escaped key":         `{"d\u0061ta":{"k":"v"}}`,
		"wrong kind":          `{"metadata":{"name":5}}`,
		"object for a string": `{"data":{"k":{}}}`,
		"trailing data":       `{"data":{}} x`,
		"not an object":       `["a"]`,
		"truncated":           `{"data":{"k":"v"`,
	} {
		assert.False(t, cleanBody([]byte(body), reflect.TypeFor[ConfigMap]()), name)
	}
	assert.True(t, cleanBody([]byte(` {"data":{"k":"v \" }"},"metadata":null} `), reflect.TypeFor[ConfigMap]()))
}

func BenchmarkDecodeStrict(b *testing.B) {
	body := runningPodJSON(b)
	b.Run("pod-status/kubeloop", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p Pod
			if _, _, err := DecodeStrict(body, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The floor: a decode that checks nothing.
	b.Run("pod-status/encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p Pod
			if err := json.Unmarshal(body, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDecodeStrictWithoutScan is the plain path alone (the token walk,
// then json.Unmarshal): what codec_scan.go's fast path saves is the
// difference to BenchmarkDecodeStrict's kubeloop run.
func BenchmarkDecodeStrictWithoutScan(b *testing.B) {
	body := runningPodJSON(b)
	b.ReportAllocs()
	for b.Loop() {
		var p Pod
		if _, _, err := walkStrict(body, &p); err != nil {
			b.Fatal(err)
		}
	}
}
