package garbagecollector

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
	"kubeloop/informers"
)

// testCluster runs the garbage collector as its only component; the tests
// play the part of the ReplicaSet controller by creating pods with owner
// references themselves.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{
		Components: cluster.Components{Extra: []cluster.Component{{Name: "garbage-collector", Run: runGC}}},
	}, func(c *cluster.Cluster) { testCluster = c })
}

// runGC is how a controller manager would run the collector.
func runGC(ctx context.Context, c *cluster.Cluster) error {
	cli, err := c.NewClient("garbage-collector")
	if err != nil {
		return err
	}
	factory := informers.NewClientInformerFactory(cli, 0, nil)
	gc := NewController(cli, factory, Options{DiscoveryPeriod: 300 * time.Millisecond})
	factory.Start(ctx)
	gc.Run(ctx, 5)
	factory.Shutdown()
	return nil
}

const (
	wait     = 30 * time.Second
	poll     = 20 * time.Millisecond
	numPods  = 10
	holdName = "kubeloop.test/hold"
)

func bg() context.Context { return context.Background() }

func replicaSets(ns string) *client.Resource[*api.ReplicaSet] {
	return client.For[*api.ReplicaSet](testCluster.Client).Namespace(ns)
}

func pods(ns string) *client.Resource[*api.Pod] {
	return client.For[*api.Pod](testCluster.Client).Namespace(ns)
}

func createReplicaSet(t *testing.T, ns, name string) *api.ReplicaSet {
	t.Helper()
	replicas := int32(numPods)
	labels := map[string]string{"app": name}
	rs, err := replicaSets(ns).Create(bg(), &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
			},
		},
	}, client.CreateOptions{})
	require.NoError(t, err)
	require.NotEmpty(t, rs.UID, "the owner references need the server-assigned UID")
	return rs
}

// controllerRef is the reference a ReplicaSet controller puts on its pods.
func controllerRef(rs *api.ReplicaSet, controller bool) api.OwnerReference {
	yes := true
	return api.OwnerReference{
		APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID,
		Controller: &controller, BlockOwnerDeletion: &yes,
	}
}

func createPod(t *testing.T, ns, name string, finalizers []string, owners ...api.OwnerReference) *api.Pod {
	t.Helper()
	p, err := pods(ns).Create(bg(), &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, OwnerReferences: owners, Finalizers: finalizers},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	}, client.CreateOptions{})
	require.NoError(t, err)
	return p
}

// createOwnedPods creates numPods pods controlled by rs; the first one
// carries the given finalizers.
func createOwnedPods(t *testing.T, rs *api.ReplicaSet, firstFinalizers []string) {
	t.Helper()
	for i := range numPods {
		var fin []string
		if i == 0 {
			fin = firstFinalizers
		}
		createPod(t, rs.Namespace, fmt.Sprintf("%s-%d", rs.Name, i), fin, controllerRef(rs, true))
	}
}

func listPods(t *testing.T, ns string) []*api.Pod {
	t.Helper()
	list, err := pods(ns).List(bg(), client.ListOptions{})
	require.NoError(t, err)
	return list.Items
}

func deleteWith(t *testing.T, ns, name string, policy api.DeletionPropagation) {
	t.Helper()
	require.NoError(t, replicaSets(ns).Delete(bg(), name, api.DeleteOptions{PropagationPolicy: &policy}))
}

func eventuallyGone[T api.Object](t *testing.T, r *client.Resource[T], name string) {
	t.Helper()
	require.Eventually(t, func() bool {
		_, err := r.Get(bg(), name, client.GetOptions{})
		return api.IsNotFound(err)
	}, wait, poll, "%s was never removed", name)
}

func TestBackgroundDeletionDeletesDependents(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	rs := createReplicaSet(t, ns, "web")
	createOwnedPods(t, rs, nil)

	deleteWith(t, ns, "web", api.DeletePropagationBackground)
	_, err := replicaSets(ns).Get(bg(), "web", client.GetOptions{})
	require.True(t, api.IsNotFound(err), "a background delete removes the owner at once: %v", err)

	require.Eventually(t, func() bool { return len(listPods(t, ns)) == 0 }, wait, poll,
		"the pods of a deleted ReplicaSet were not collected")
}

func TestForegroundDeletionWaitsForBlockingDependents(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	rs := createReplicaSet(t, ns, "web")
	// A finalizer of the test holds one pod back, so the owner has a
	// blocking dependent for as long as the test wants.
	createOwnedPods(t, rs, []string{holdName})

	deleteWith(t, ns, "web", api.DeletePropagationForeground)
	got, err := replicaSets(ns).Get(bg(), "web", client.GetOptions{})
	require.NoError(t, err, "a foreground delete keeps the owner")
	require.NotNil(t, got.DeletionTimestamp)
	require.Contains(t, got.Finalizers, api.FinalizerDeleteDependents)

	held := rs.Name + "-0"
	require.Eventually(t, func() bool {
		ps := listPods(t, ns)
		return len(ps) == 1 && ps[0].Name == held && ps[0].DeletionTimestamp != nil
	}, wait, poll, "the collector should delete every pod; only the held one may remain, terminating")

	got, err = replicaSets(ns).Get(bg(), "web", client.GetOptions{})
	require.NoError(t, err, "the owner waits while a blocking dependent remains")
	require.Contains(t, got.Finalizers, api.FinalizerDeleteDependents)

	_, err = pods(ns).Patch(bg(), held, client.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), client.PatchOptions{})
	require.NoError(t, err)
	eventuallyGone(t, pods(ns), held)
	eventuallyGone(t, replicaSets(ns), "web")
}

func TestOrphanDeletionKeepsDependentsWithoutOwnerReference(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	rs := createReplicaSet(t, ns, "web")
	createOwnedPods(t, rs, nil)

	deleteWith(t, ns, "web", api.DeletePropagationOrphan)
	// The collector removes the orphan finalizer only after every pod has
	// lost its reference, so once the owner is gone the pods are orphans.
	eventuallyGone(t, replicaSets(ns), "web")

	ps := listPods(t, ns)
	require.Len(t, ps, numPods, "orphaned pods are kept")
	for _, p := range ps {
		require.Empty(t, p.OwnerReferences, "pod %s still points at its deleted owner", p.Name)
		require.Nil(t, p.DeletionTimestamp)
	}
}

func TestDependentOfOwnerThatNeverExistedIsDeleted(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	ghost := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "ghost", Namespace: ns, UID: uuid.NewString()}}
	createPod(t, ns, "orphan", nil, controllerRef(ghost, true))
	eventuallyGone(t, pods(ns), "orphan")
}

func TestDependentOfSameNamedOwnerWithOtherUIDIsDeleted(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	real := createReplicaSet(t, ns, "web")
	stale := *real
	stale.UID = uuid.NewString() // an earlier "web", long gone
	createPod(t, ns, "stale", nil, controllerRef(&stale, true))
	createPod(t, ns, "live", nil, controllerRef(real, true))

	eventuallyGone(t, pods(ns), "stale")
	p, err := pods(ns).Get(bg(), "live", client.GetOptions{})
	require.NoError(t, err, "a pod of the live owner is kept")
	require.Len(t, p.OwnerReferences, 1)
}

func TestOnlyDanglingReferenceIsRemovedWhenAnotherOwnerRemains(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	keep := createReplicaSet(t, ns, "keep")
	gone := createReplicaSet(t, ns, "gone")
	createPod(t, ns, "shared", nil, controllerRef(keep, true), controllerRef(gone, false))

	deleteWith(t, ns, "gone", api.DeletePropagationBackground)
	var p *api.Pod
	var err error
	require.Eventually(t, func() bool {
		p, err = pods(ns).Get(bg(), "shared", client.GetOptions{})
		return err != nil || len(p.OwnerReferences) == 1
	}, wait, poll, "the dangling reference was not removed")
	require.NoError(t, err, "a pod with a live owner must not be deleted")
	require.Equal(t, keep.UID, p.OwnerReferences[0].UID, "the live owner's reference stays")
	require.Nil(t, p.DeletionTimestamp)
}

func TestRestartedCollectorFinishesWhatHappenedWhileItWasDown(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	require.NoError(t, testCluster.StopComponent("garbage-collector"))

	// While no collector runs: one owner is deleted outright, another starts
	// an orphan deletion. Nothing happens to their pods.
	gone := createReplicaSet(t, ns, "gone")
	createOwnedPods(t, gone, nil)
	orphaning := createReplicaSet(t, ns, "orphaning")
	createPod(t, ns, "orphan-me", nil, controllerRef(orphaning, true))
	deleteWith(t, ns, "gone", api.DeletePropagationBackground)
	deleteWith(t, ns, "orphaning", api.DeletePropagationOrphan)
	require.Len(t, listPods(t, ns), numPods+1)

	// A new collector learns both from its initial lists.
	// It runs as the cluster's component, as the stopped one did: the tests
	// after this one keep a collector, and the cluster stops it.
	testCluster.StartComponent(cluster.Component{Name: "garbage-collector", Run: runGC})

	eventuallyGone(t, replicaSets(ns), "orphaning")
	require.Eventually(t, func() bool {
		ps := listPods(t, ns)
		return len(ps) == 1 && ps[0].Name == "orphan-me"
	}, wait, poll, "the pods of the deleted owner are collected, the orphan stays")
	p, err := pods(ns).Get(bg(), "orphan-me", client.GetOptions{})
	require.NoError(t, err)
	require.Empty(t, p.OwnerReferences)
}

// TestEventsAreNotWatched: like Kubernetes' collector, ours leaves Events
// out of its graph (they are the most written kind and nobody owns them),
// while every other kind, pods and ReplicaSets among them, is watched.
func TestEventsAreNotWatched(t *testing.T) {
	ctx, cancel := context.WithCancel(clustertest.Context(t))
	defer cancel()
	factory := informers.NewClientInformerFactory(testCluster.Client, 0, nil)
	NewController(testCluster.Client, factory, Options{})
	factory.Start(ctx)
	synced := factory.WaitForCacheSync(ctx)
	defer factory.Shutdown()
	defer cancel()

	require.True(t, synced["pods"], "pods are watched: %v", synced)
	require.True(t, synced["replicasets"], "replicasets are watched: %v", synced)
	require.NotContains(t, synced, "events")
	require.Len(t, synced, len(api.Builtin().All())-1, "every kind but events is watched")
}
