package api

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSemanticEqual(t *testing.T) {
	sec := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	berlin := time.FixedZone("CET", 3600)
	yes, no := true, false
	cases := []struct {
		name string
		a, b any
		want bool
	}{
		{"nil and empty slices", PodStatus{Conditions: nil}, PodStatus{Conditions: []PodCondition{}}, true},
		{"nil and empty maps", ObjectMeta{Labels: nil}, ObjectMeta{Labels: map[string]string{}}, true},
		{"different maps", ObjectMeta{Labels: map[string]string{"a": "1"}}, ObjectMeta{Labels: map[string]string{"a": "2"}}, false},
		{"map key missing", ObjectMeta{Labels: map[string]string{"a": ""}}, ObjectMeta{Labels: map[string]string{"b": ""}}, false},
		{"nil pointer is not a pointer to false", ContainerStatus{Started: nil}, ContainerStatus{Started: &no}, false},
		{"pointers to equal values", ContainerStatus{Started: &yes}, ContainerStatus{Started: ptr(true)}, true},
		{"Time at whole seconds", Time{sec}, Time{sec.Add(400 * time.Millisecond)}, true},
		{"Time a second apart", Time{sec}, Time{sec.Add(time.Second)}, false},
		{"Time in another zone", Time{sec}, Time{sec.In(berlin)}, true},
		{"MicroTime keeps microseconds", MicroTime{sec}, MicroTime{sec.Add(time.Microsecond)}, false},
		{"MicroTime drops nanoseconds", MicroTime{sec}, MicroTime{sec.Add(time.Nanosecond)}, true},
		{"quantity by amount", ResourceList{"cpu": "1"}, ResourceList{"cpu": "1000m"}, true},
		{"quantity different", ResourceList{"cpu": "1"}, ResourceList{"cpu": "999m"}, false},
		{"slices differ in length", PodStatus{PodIPs: []PodIP{{IP: "a"}}}, PodStatus{}, false},
		{"nested difference", PodStatus{ContainerStatuses: []ContainerStatus{{State: ContainerState{Running: &ContainerStateRunning{StartedAt: Time{sec}}}}}},
			PodStatus{ContainerStatuses: []ContainerStatus{{State: ContainerState{Waiting: &ContainerStateWaiting{}}}}}, false},
		{"different types", PodStatus{}, NodeStatus{}, false},
		{"interfaces holding equal pods", []Object{&Pod{}}, []Object{&Pod{Spec: PodSpec{Containers: []Container{}}}}, true},
		{"interfaces holding different kinds", []Object{&Pod{}}, []Object{&Node{}}, false},
		{"both nil", nil, nil, true},
		{"one nil", nil, PodStatus{}, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, SemanticEqual(c.a, c.b), c.name)
		assert.Equal(t, c.want, SemanticEqual(c.b, c.a), c.name+" (swapped)")
	}
}

func ptr[T any](v T) *T { return &v }
