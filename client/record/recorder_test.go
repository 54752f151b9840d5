package record_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
)

var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{}, func(c *cluster.Cluster) { testCluster = c })
}

const (
	deadline = 20 * time.Second
	tick     = 20 * time.Millisecond
)

var nsCounter atomic.Int64

func newNamespace(t *testing.T) string {
	t.Helper()
	name := fmt.Sprintf("record-%d", nsCounter.Add(1))
	_, err := client.For[*api.Namespace](testCluster.Client).Create(context.Background(),
		&api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}, client.CreateOptions{})
	require.NoError(t, err)
	return name
}

// runningRecorder starts a recorder whose Run stops with the test.
func runningRecorder(t *testing.T, component, host string) *record.Recorder {
	t.Helper()
	cl, err := testCluster.NewClient(component)
	require.NoError(t, err)
	r := record.NewRecorder(cl, component, host)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return r
}

func newConfigMap(t *testing.T, ns, name string) *api.ConfigMap {
	t.Helper()
	cm, err := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns).Create(context.Background(),
		&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: name}}, client.CreateOptions{})
	require.NoError(t, err)
	return cm
}

// eventsAbout lists the events in ns whose involvedObject is name.
func eventsAbout(t *testing.T, ns, name string) []*api.Event {
	t.Helper()
	l, err := client.For[*api.Event](testCluster.Client).Namespace(ns).List(context.Background(), client.ListOptions{})
	require.NoError(t, err)
	var out []*api.Event
	for _, e := range l.Items {
		if e.InvolvedObject.Name == name {
			out = append(out, e)
		}
	}
	return out
}

func waitForEvents(t *testing.T, ns, name string, n int) []*api.Event {
	t.Helper()
	var evs []*api.Event
	require.Eventually(t, func() bool {
		evs = eventsAbout(t, ns, name)
		return len(evs) >= n
	}, deadline, tick)
	return evs
}

func TestEventHasKubernetesShape(t *testing.T) {
	ns := newNamespace(t)
	cm := newConfigMap(t, ns, "web")
	// Objects from a typed client or a lister may carry no kind; the
	// reference must still name it.
	cm.TypeMeta = api.TypeMeta{}
	r := runningRecorder(t, "test-controller", "node-1")

	r.Eventf(cm, api.EventTypeNormal, "SuccessfulCreate", "Created pod: %s", "web-abcde")

	ev := waitForEvents(t, ns, "web", 1)[0]
	require.Equal(t, ns, ev.Namespace)
	require.Equal(t, api.ObjectReference{
		Kind: "ConfigMap", APIVersion: "v1", Namespace: ns, Name: "web",
		UID: cm.UID, ResourceVersion: cm.ResourceVersion,
	}, ev.InvolvedObject)
	require.Equal(t, api.EventTypeNormal, ev.Type)
	require.Equal(t, "SuccessfulCreate", ev.Reason)
	require.Equal(t, "Created pod: web-abcde", ev.Message)
	require.Equal(t, api.EventSource{Component: "test-controller", Host: "node-1"}, ev.Source)
	require.Equal(t, int32(1), ev.Count)
	require.False(t, ev.FirstTimestamp.IsZero())
	require.Equal(t, ev.FirstTimestamp, ev.LastTimestamp)
	require.Equal(t, "test-controller", ev.ReportingController)
	require.Regexp(t, `^web\.[0-9a-f]+$`, ev.Name, "named <object>.<hex nanoseconds> like Kubernetes")
}

func TestEventAboutAClusterScopedObjectLivesInDefault(t *testing.T) {
	name := newNamespace(t)
	nsObj, err := client.For[*api.Namespace](testCluster.Client).Get(context.Background(), name, client.GetOptions{})
	require.NoError(t, err)
	r := runningRecorder(t, "test-controller", "")

	r.Event(nsObj, api.EventTypeWarning, "Odd", "something odd")

	ev := waitForEvents(t, "default", name, 1)[0]
	require.Equal(t, "default", ev.Namespace)
	require.Equal(t, "Namespace", ev.InvolvedObject.Kind)
	require.Equal(t, "v1", ev.InvolvedObject.APIVersion)
	require.Empty(t, ev.InvolvedObject.Namespace)
	require.Equal(t, nsObj.UID, ev.InvolvedObject.UID)
	require.Equal(t, api.EventTypeWarning, ev.Type)
}

func TestRepeatedEventBumpsCountAndLastTimestampOnTheSameEvent(t *testing.T) {
	ns := newNamespace(t)
	cm := newConfigMap(t, ns, "web")
	r := runningRecorder(t, "test-controller", "")

	r.Event(cm, api.EventTypeWarning, "FailedCreate", "quota exceeded")
	first := waitForEvents(t, ns, "web", 1)[0]

	// Timestamps have one-second resolution on the wire: wait for the
	// clock to pass the next second so a bumped lastTimestamp is visible.
	require.Eventually(t, func() bool {
		return time.Now().Truncate(time.Second).After(first.FirstTimestamp.Time)
	}, deadline, tick)
	r.Event(cm, api.EventTypeWarning, "FailedCreate", "quota exceeded")

	var ev *api.Event
	require.Eventually(t, func() bool {
		evs := eventsAbout(t, ns, "web")
		if len(evs) != 1 {
			return false
		}
		ev = evs[0]
		return ev.Count == 2
	}, deadline, tick)
	require.Equal(t, first.Name, ev.Name, "the repeat updates the same Event")
	require.Equal(t, first.UID, ev.UID)
	require.Equal(t, first.FirstTimestamp, ev.FirstTimestamp)
	require.True(t, ev.LastTimestamp.After(first.LastTimestamp.Time),
		"lastTimestamp moves: %s then %s", first.LastTimestamp, ev.LastTimestamp)

	// A different message is a different event.
	r.Event(cm, api.EventTypeWarning, "FailedCreate", "node full")
	evs := waitForEvents(t, ns, "web", 2)
	require.Len(t, evs, 2)
}

func TestRepeatAfterTheEventWasDeletedCreatesANewOne(t *testing.T) {
	ns := newNamespace(t)
	cm := newConfigMap(t, ns, "web")
	r := runningRecorder(t, "test-controller", "")
	r.Event(cm, api.EventTypeNormal, "Sync", "synced")
	first := waitForEvents(t, ns, "web", 1)[0]
	require.NoError(t, client.For[*api.Event](testCluster.Client).Namespace(ns).Delete(context.Background(), first.Name, api.DeleteOptions{}))

	r.Event(cm, api.EventTypeNormal, "Sync", "synced")
	ev := waitForEvents(t, ns, "web", 1)[0]
	require.NotEqual(t, first.UID, ev.UID)
	require.Equal(t, int32(1), ev.Count)
}

func TestFullBufferDropsInsteadOfBlocking(t *testing.T) {
	// Run is never started, so nothing drains the 1000-event buffer: the
	// second thousand calls must be dropped, not wait. Each event is about
	// its own object, so the per-object spam filter lets all of them
	// through to the buffer.
	r := record.NewRecorder(testCluster.Client, "test-controller", "")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 2000 {
			cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("web-%d", i), Namespace: "default"}}
			r.Eventf(cm, api.EventTypeNormal, "Tick", "tick %d", i)
		}
	}()
	select {
	case <-done:
	case <-time.After(deadline):
		t.Fatal("Event blocked on a full buffer")
	}
}

// TestAFloodAboutOneObjectIsCutAtTwentyFive: like client-go, a source gets
// 25 events about one object; the rest are dropped, while events about
// other objects still go out.
func TestAFloodAboutOneObjectIsCutAtTwentyFive(t *testing.T) {
	ns := newNamespace(t)
	web := newConfigMap(t, ns, "web")
	other := newConfigMap(t, ns, "other")
	r := runningRecorder(t, "test-controller", "")

	for i := range 40 {
		r.Eventf(web, api.EventTypeNormal, "SuccessfulCreate", "Created pod: web-%d", i)
	}
	// The recorder writes in order, so once the event about the other
	// object is there, everything before it has been written or dropped.
	r.Event(other, api.EventTypeNormal, "Sync", "after the flood")
	waitForEvents(t, ns, "other", 1)
	require.Len(t, eventsAbout(t, ns, "web"), 25)
}

func TestFakeRecorderKeepsEventsAsStrings(t *testing.T) {
	var f record.FakeRecorder
	var rec record.EventRecorder = &f
	rec.Eventf(&api.Pod{}, api.EventTypeNormal, "Scheduled", "assigned %s to %s", "p", "n")
	require.Equal(t, []string{"Normal Scheduled assigned p to n"}, f.Snapshot())
}
