package trace

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// The tests of this package switch the process-wide trace on and off, so
// none of them runs in parallel.

func pod(name, owner, rv string) *api.Pod {
	yes := true
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, ResourceVersion: rv}}
	if owner != "" {
		p.OwnerReferences = []api.OwnerReference{{Kind: "ReplicaSet", Name: owner, Controller: &yes}}
	}
	return p
}

func TestOffByDefaultAndEmittedCountsEveryCall(t *testing.T) {
	require.False(t, On(), "no subscriber, no trace")
	before := Emitted()
	Emit(Event{Hop: Reconcile, Key: "default/web"})
	assert.Equal(t, before+1, Emitted(), "a site that forgets its On check is seen")
}

func TestHooksWhileOffDoNotAllocate(t *testing.T) {
	require.False(t, On())
	ctx := context.Background()
	p := pod("web-1", "web", "7")
	// What a site does while off: the check, then nothing.
	allocs := testing.AllocsPerRun(1000, func() {
		if On() {
			Emit(ObjectEvent(5, PodCreate, "replicaset", "pods", p, "x"))
		}
		WriteStarting("default/web-1", StepFrom(ctx))
		RecordWrite("7", "default/web-1", 5)
	})
	assert.Zero(t, allocs)
}

func TestSubscribeSwitchesOnAndTheLastCloseSwitchesOff(t *testing.T) {
	a := Subscribe(10, nil)
	b := Subscribe(10, nil)
	assert.True(t, On())
	a.Close()
	assert.True(t, On(), "b still listens")
	Emit(Event{Hop: Reconcile, Key: "default/web"})
	require.Len(t, b.C, 1)
	assert.Empty(t, a.C, "a closed subscription receives nothing")
	b.Close()
	assert.False(t, On())
	Emit(Event{Hop: Reconcile, Key: "default/web"})
	assert.Len(t, b.C, 1, "nothing more after the last Close")
}

func TestFullBufferDropsAndCounts(t *testing.T) {
	s := Subscribe(2, nil)
	defer s.Close()
	for range 5 {
		Emit(Event{Hop: Reconcile})
	}
	assert.Len(t, s.C, 2)
	assert.Equal(t, int64(3), s.Dropped(), "Emit never blocks a component")
}

func TestRelatedTakesTheObjectAndThePodsItControls(t *testing.T) {
	r := NewRelated("ReplicaSet", "replicasets", "default", "web")
	take := func(e Event) bool { return r.Match(&e) }

	assert.True(t, take(Event{Resource: "replicasets", Key: "default/web"}))
	assert.True(t, take(Event{Key: "default/web"}), "a bare workqueue key")
	assert.False(t, take(Event{Resource: "deployments", Key: "default/web"}))
	assert.False(t, take(Event{Resource: "pods", Key: "default/web-1"}), "not known as owned yet")
	assert.True(t, take(ObjectEvent(5, EtcdCommitted, "etcd", "pods", pod("web-1", "web", "7"), "")))
	assert.True(t, take(Event{Resource: "pods", Key: "default/web-1"}), "a request names only the pod: remembered")
	assert.False(t, take(ObjectEvent(5, EtcdCommitted, "etcd", "pods", pod("db-1", "db", "8"), "")))
}

func TestRequestStepsAreTheDiagramsArrows(t *testing.T) {
	for _, c := range []struct {
		verb, resource, sub string
		want                Step
	}{
		{"update", "replicasets", "scale", 1},
		{"patch", "replicasets", "", 1},
		{"create", "pods", "", 5},
		{"create", "pods", "binding", 7},
		{"update", "pods", "status", 10},
		{"patch", "pods", "status", 10},
		{"update", "replicasets", "status", Off},
		{"create", "replicasets", "", Off},
		{"get", "pods", "", Off},
		{"watch", "replicasets", "", Off},
		{"create", "events", "", Off},
	} {
		assert.Equal(t, c.want, RequestStep(c.verb, c.resource, c.sub), "%s %s/%s", c.verb, c.resource, c.sub)
	}
	assert.Equal(t, Step(2), CommitStep(1), "the ReplicaSet's write is arrow 2")
	assert.Equal(t, Step(7), CommitStep(7))
}

// A watch event is numbered by the write it carries, also when it reaches
// the watch cache before the write's answer reaches the apiserver.
func TestWatchEventsAreNumberedByTheWriteTheyCarry(t *testing.T) {
	s := Subscribe(1, nil)
	defer s.Close()

	WriteStarting("default/web-1", 5)
	assert.Equal(t, Step(6), DispatchStep("12", "default/web-1"), "in flight: the pending write's arrow")
	assert.Equal(t, Step(6), DeliveryStep(Scheduler, "12", "default/web-1"))
	RecordWrite("12", "default/web-1", 5)

	RecordWrite("13", "default/web-1", 7)
	assert.Equal(t, Step(8), DispatchStep("13", "default/web-1"))
	assert.Equal(t, Step(8), DeliveryStep("kubelet-node-2", "13", "default/web-1"))
	assert.Equal(t, Step(3), DeliveryStep(ControllerManager, "13", "default/web-1"), "every event is the controller's hint")
	assert.Equal(t, Off, DeliveryStep(Scheduler, "13", "default/web-1"), "the scheduler's arrow is new pods only")

	RecordWrite("14", "default/web-1", 10)
	assert.Equal(t, Step(10), DeliveryStep(ControllerManager, "14", "default/web-1"), "Running observed")
	assert.Equal(t, Off, DeliveryStep("kubelet-node-2", "14", "default/web-1"), "a kubelet seeing its own status write")

	WriteStarting("default/web-1", 10)
	RecordWrite("15", "default/web-1", Off)
	assert.Equal(t, Off, DispatchStep("15", "default/web-1"), "a known write beside the spine keeps Off")
	assert.Equal(t, Off, DispatchStep("99", "default/other"), "unknown")
}

func TestLastCloseForgetsTheWrites(t *testing.T) {
	s := Subscribe(1, nil)
	RecordWrite("21", "default/web", 2)
	require.Equal(t, Step(3), DispatchStep("21", "default/web"))
	s.Close()
	s = Subscribe(1, nil)
	defer s.Close()
	assert.Equal(t, Off, DispatchStep("21", "default/web"))
}

func TestPrintAndMermaid(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	events := []Event{
		{Step: 2, Hop: EtcdCommitted, Component: "etcd", Resource: "replicasets", Key: "default/web", ResourceVersion: "45", Time: t0.Add(3 * time.Millisecond)},
		{Step: 1, Hop: APIServerReceived, Component: "apiserver", Resource: "replicasets", Key: "default/web", Time: t0, Detail: "PUT replicasets/scale"},
		{Step: 3, Hop: WatchDispatched, Component: "watch cache", Resource: "replicasets", Key: "default/web", ResourceVersion: "45", Time: t0.Add(4 * time.Millisecond)},
		{Step: 3, Hop: WorkqueueAdd, Component: "replicaset", Key: "default/web", Time: t0.Add(5 * time.Millisecond)},
		{Step: 9, Hop: KubeletStart, Component: "kubelet-node-1", Resource: "pods", Key: "default/web-1", Time: t0.Add(9 * time.Millisecond), Detail: "a;b#c"},
		{Step: Off, Hop: APIServerReceived, Component: "apiserver", Resource: "replicasets", Key: "default/web", Time: t0.Add(10 * time.Millisecond)},
	}
	var text strings.Builder
	require.NoError(t, Print(&text, events))
	lines := strings.Split(strings.TrimSpace(text.String()), "\n")
	require.Len(t, lines, 7)
	assert.Equal(t, Header, lines[0])
	assert.Regexp(t, `^\s+1\s+\+0\.0\s+apiserver\s+apiserver received\s+replicasets default/web\s+-\s+PUT replicasets/scale$`, lines[1], "sorted by time")
	assert.Regexp(t, `^\s+2\s+\+3\.0\s+etcd\s+etcd committed\s+replicasets default/web\s+45\s`, lines[2])
	assert.Regexp(t, `^\s+·\s+\+10\.0\s`, lines[6], "beside the spine")

	var m strings.Builder
	require.NoError(t, WriteMermaid(&m, events))
	out := m.String()
	assert.True(t, strings.HasPrefix(out, "sequenceDiagram\n    participant K as kubectl scale\n"))
	for _, want := range []string{
		"    K->>A: [1] apiserver received default/web, +0 ms – PUT replicasets/scale\n",
		"    A->>E: [2] etcd committed default/web, rv 45, +3 ms\n",
		"    A-->>RS: [3] watch cache dispatched default/web, rv 45, +4 ms\n",
		"    RS->>RS: [3] workqueue add default/web, +5 ms\n",
		"    KL->>KL: [9] kubelet start default/web-1 on node-1, +9 ms – a,bc\n",
		"    K->>A: [·] apiserver received default/web, +10 ms\n",
	} {
		assert.Contains(t, out, want)
	}
}

// BenchmarkSiteWhileOff is what every instrumented site costs while nobody
// listens: the check, then nothing.
func BenchmarkSiteWhileOff(b *testing.B) {
	p := pod("web-1", "web", "7")
	b.ReportAllocs()
	for b.Loop() {
		if On() {
			Emit(ObjectEvent(5, PodCreate, "replicaset", "pods", p, "x"))
		}
	}
}

// BenchmarkSiteWhileOn is the same site with one subscriber whose filter
// takes nothing: building the event and offering it.
func BenchmarkSiteWhileOn(b *testing.B) {
	s := Subscribe(1, func(*Event) bool { return false })
	defer s.Close()
	p := pod("web-1", "web", "7")
	b.ReportAllocs()
	for b.Loop() {
		if On() {
			Emit(ObjectEvent(5, PodCreate, "replicaset", "pods", p, "x"))
		}
	}
}
