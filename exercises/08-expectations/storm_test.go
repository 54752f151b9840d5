//go:build exercise || solution

package expectations

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

func replicaSets(ns string) *client.Resource[*api.ReplicaSet] {
	return client.For[*api.ReplicaSet](testCluster.Client).Namespace(ns)
}

func createReplicaSet(t *testing.T, ns, name string, replicas int32) {
	t.Helper()
	labels := map[string]string{"app": name}
	_, err := replicaSets(ns).Create(context.Background(), &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}},
			},
		},
	}, client.CreateOptions{})
	require.NoError(t, err)
}

// edit changes the ReplicaSet as a user would (each change is an event,
// and each event a sync), retrying on conflict.
func edit(t *testing.T, ns, name string, change func(rs *api.ReplicaSet)) {
	t.Helper()
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		rs, err := replicaSets(ns).Get(context.Background(), name, client.GetOptions{})
		if err != nil {
			return err
		}
		change(rs)
		_, err = replicaSets(ns).Update(context.Background(), rs, client.UpdateOptions{})
		return err
	}))
}

// pokeAndWaitForSync makes one more sync of the ReplicaSet happen: an
// annotation changes, and the test waits until a sync has run since.
func pokeAndWaitForSync(t *testing.T, ns, name string, i int) {
	t.Helper()
	key := ns + "/" + name
	before := h.syncsOf(key)
	edit(t, ns, name, func(rs *api.ReplicaSet) {
		if rs.Annotations == nil {
			rs.Annotations = map[string]string{}
		}
		rs.Annotations["poke"] = strconv.Itoa(i)
	})
	waitUntil(t, waitFor, "a sync of "+key+" after poke "+strconv.Itoa(i), func() bool { return h.syncsOf(key) > before })
}

func podsInAPI(t *testing.T, ns string) int {
	t.Helper()
	l, err := client.For[*api.Pod](testCluster.Client).Namespace(ns).List(context.Background(), client.ListOptions{})
	require.NoError(t, err)
	return len(l.Items)
}

func cachedPods(ns string) int { return len(h.ctrl.podLister.Namespace(ns).List(nil)) }

// The controller creates five pods, but its watch is slow: the pods are in
// the apiserver, not yet in its cache. Three more syncs happen meanwhile
// (any event on the ReplicaSet would do). Each of them sees zero pods in
// the cache; with expectations, none creates anything. Without, each would
// create five more: twenty pods for a ReplicaSet of five.
func TestNoCreateStormWhileTheWatchIsDelayed(t *testing.T) {
	ns := newNamespace(t)
	key := ns + "/web"
	release := delayPodEvents(t)
	createReplicaSet(t, ns, "web", 5)
	waitUntil(t, waitFor, "the controller created 5 pods", func() bool { return h.count(ns, "POST") >= 5 })
	for i := range 3 {
		pokeAndWaitForSync(t, ns, "web", i)
	}
	require.Equal(t, 5, h.count(ns, "POST"),
		"pods created while the controller's own 5 creations were still on their way through the watch: a create storm")
	assert.Zero(t, cachedPods(ns), "the watch was held back: the cache has not seen the pods")

	release()
	waitUntil(t, waitFor, "the cache saw the 5 pods", func() bool { return cachedPods(ns) == 5 })
	waitUntil(t, 5*time.Second, "the expectations were satisfied once the 5 creations were observed", func() bool {
		return h.ctrl.expectations.SatisfiedExpectations(key)
	})
	pokeAndWaitForSync(t, ns, "web", 3)
	assert.Equal(t, 5, h.count(ns, "POST"), "5 pods observed, 5 wanted: nothing to create")
	assert.Equal(t, 5, podsInAPI(t, ns))

	// A new round: scaling up creates exactly the difference, at once.
	edit(t, ns, "web", func(rs *api.ReplicaSet) { seven := int32(7); rs.Spec.Replicas = &seven })
	waitUntil(t, waitFor, "the controller created the 2 more pods of a scale to 7", func() bool { return h.count(ns, "POST") >= 7 })
	waitUntil(t, waitFor, "the cache saw 7 pods", func() bool { return cachedPods(ns) == 7 })
	pokeAndWaitForSync(t, ns, "web", 4)
	assert.Equal(t, 7, h.count(ns, "POST"))
	assert.Equal(t, 7, podsInAPI(t, ns))
}

// The same for deletions: scaled from 4 to 1 while the watch is slow, the
// controller deletes 3 pods and, however often it syncs before the watch
// catches up, not one more.
func TestNoDoubleDeletesWhileTheWatchIsDelayed(t *testing.T) {
	ns := newNamespace(t)
	key := ns + "/web"
	createReplicaSet(t, ns, "web", 4)
	waitUntil(t, waitFor, "the cache saw 4 pods", func() bool { return cachedPods(ns) == 4 })
	waitUntil(t, 5*time.Second, "the expectations were satisfied", func() bool { return h.ctrl.expectations.SatisfiedExpectations(key) })

	release := delayPodEvents(t)
	edit(t, ns, "web", func(rs *api.ReplicaSet) { one := int32(1); rs.Spec.Replicas = &one })
	waitUntil(t, waitFor, "the controller deleted 3 pods", func() bool { return h.count(ns, "DELETE") >= 3 })
	for i := range 3 {
		pokeAndWaitForSync(t, ns, "web", i)
	}
	require.Equal(t, 3, h.count(ns, "DELETE"),
		"pods deleted again while the controller's own 3 deletions were still on their way through the watch")
	assert.Equal(t, 4, cachedPods(ns), "the watch was held back: the cache still has 4 pods")

	release()
	waitUntil(t, waitFor, "the cache saw the 3 deletions", func() bool { return cachedPods(ns) == 1 })
	waitUntil(t, 5*time.Second, "the expectations were satisfied once the 3 deletions were observed", func() bool {
		return h.ctrl.expectations.SatisfiedExpectations(key)
	})
	assert.Equal(t, 1, podsInAPI(t, ns))
	edit(t, ns, "web", func(rs *api.ReplicaSet) { two := int32(2); rs.Spec.Replicas = &two })
	waitUntil(t, waitFor, "the controller created a pod for a scale to 2", func() bool { return h.count(ns, "POST") >= 5 })
	waitUntil(t, waitFor, "the cache saw 2 pods", func() bool { return cachedPods(ns) == 2 })
	assert.Equal(t, 3, h.count(ns, "DELETE"))
}
