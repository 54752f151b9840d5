package namespace

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

func TestDeletedNamespaceIsEmptiedOfEveryKindAndRemoved(t *testing.T) {
	startController(t, testCluster.URL)
	ns := clustertest.Namespace(t, testCluster)
	ctx := clustertest.Context(t)
	cl := testCluster.Client
	_, err := client.For[*api.ConfigMap](cl).Namespace(ns).Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm"}}, client.CreateOptions{})
	require.NoError(t, err)
	replicas := int32(0)
	_, err = client.For[*api.ReplicaSet](cl).Namespace(ns).Create(ctx, &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "rs"},
		Spec: api.ReplicaSetSpec{Replicas: &replicas, Selector: &api.LabelSelector{MatchLabels: map[string]string{"a": "b"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"a": "b"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}},
	}, client.CreateOptions{})
	require.NoError(t, err)
	holder := "someone"
	_, err = client.For[*api.Lease](cl).Namespace(ns).Create(ctx, &api.Lease{ObjectMeta: api.ObjectMeta{Name: "lease"},
		Spec: api.LeaseSpec{HolderIdentity: &holder}}, client.CreateOptions{})
	require.NoError(t, err)
	// An unscheduled pod has no grace period: it goes at once.
	_, err = client.For[*api.Pod](cl).Namespace(ns).Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "pod"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}, client.CreateOptions{})
	require.NoError(t, err)

	deleteNamespace(t, ns)
	waitGone(t, ns)
	// What the namespace held went with it, each kind through its own
	// group's API.
	cms, err := client.For[*api.ConfigMap](cl).Namespace(ns).List(ctx, client.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, cms.Items)
	rss, err := client.For[*api.ReplicaSet](cl).Namespace(ns).List(ctx, client.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, rss.Items)
	leases, err := client.For[*api.Lease](cl).Namespace(ns).List(ctx, client.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, leases.Items)
	pods, err := client.For[*api.Pod](cl).Namespace(ns).List(ctx, client.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, pods.Items)
}

func TestLiveNamespacesAreLeftAlone(t *testing.T) {
	startController(t, testCluster.URL)
	live := clustertest.Namespace(t, testCluster)
	doomed := clustertest.Namespace(t, testCluster)
	ctx := clustertest.Context(t)
	for _, ns := range []string{live, doomed} {
		_, err := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns).Create(ctx,
			&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm"}}, client.CreateOptions{})
		require.NoError(t, err)
	}
	deleteNamespace(t, doomed)
	waitGone(t, doomed)
	n, err := namespaces().Get(ctx, live, client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, api.NamespaceActive, n.Status.Phase)
	assert.Empty(t, n.Status.Conditions)
	_, err = client.For[*api.ConfigMap](testCluster.Client).Namespace(live).Get(ctx, "cm", client.GetOptions{})
	require.NoError(t, err, "the live namespace keeps its content")
}

func TestContentHeldByFinalizersKeepsTheNamespaceAndSaysWhy(t *testing.T) {
	startController(t, testCluster.URL)
	ns := clustertest.Namespace(t, testCluster)
	ctx := clustertest.Context(t)
	cms := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns)
	_, err := cms.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "held", Finalizers: []string{"example.com/hold"}}}, client.CreateOptions{})
	require.NoError(t, err)
	_, err = cms.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "free"}}, client.CreateOptions{})
	require.NoError(t, err)

	deleteNamespace(t, ns)
	n := waitCondition(t, ns, condition(api.NamespaceContentRemaining, api.ConditionTrue, "SomeResourcesRemain",
		"Some resources are remaining: configmaps. has 1 resource instances"))
	want := map[api.NamespaceConditionType]api.NamespaceCondition{
		api.NamespaceDeletionDiscoveryFailure: condition(api.NamespaceDeletionDiscoveryFailure, api.ConditionFalse, "ResourcesDiscovered", "All resources successfully discovered"),
		api.NamespaceDeletionGVParsingFailure: condition(api.NamespaceDeletionGVParsingFailure, api.ConditionFalse, "ParsedGroupVersions", "All legacy kube types successfully parsed"),
		api.NamespaceDeletionContentFailure:   condition(api.NamespaceDeletionContentFailure, api.ConditionFalse, "ContentDeleted", "All content successfully deleted, may be waiting on finalization"),
		api.NamespaceContentRemaining:         condition(api.NamespaceContentRemaining, api.ConditionTrue, "SomeResourcesRemain", "Some resources are remaining: configmaps. has 1 resource instances"),
		api.NamespaceFinalizersRemaining:      condition(api.NamespaceFinalizersRemaining, api.ConditionTrue, "SomeFinalizerRemain", "Some finalizers are remaining: example.com/hold in 1 resource instances"),
	}
	require.Len(t, n.Status.Conditions, len(want))
	for i, c := range n.Status.Conditions {
		assert.Equal(t, conditionTypes[i], c.Type, "Kubernetes' order")
		w := want[c.Type]
		assert.Equal(t, []string{string(w.Status), w.Reason, w.Message}, []string{string(c.Status), c.Reason, c.Message}, c.Type)
		assert.False(t, c.LastTransitionTime.IsZero())
	}
	assert.Equal(t, api.NamespaceTerminating, n.Status.Phase)
	assert.Equal(t, []api.FinalizerName{api.FinalizerKubernetes}, n.Spec.Finalizers, "not finalized while content remains")
	_, err = cms.Get(ctx, "free", client.GetOptions{})
	assert.True(t, api.IsNotFound(err), "what nothing holds is deleted: %v", err)

	// Whoever owns the finalizer finishes: the namespace follows.
	_, err = cms.Patch(ctx, "held", client.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), client.PatchOptions{})
	require.NoError(t, err)
	waitGone(t, ns)
}

func TestDiscoveryFailureIsAConditionAndKeepsTheNamespaceUntilDiscoveryWorks(t *testing.T) {
	proxy := startFaultyProxy(t, func(r *http.Request) bool { return r.URL.Path == "/apis/coordination.k8s.io/v1" })
	startController(t, proxy.URL)
	ns := clustertest.Namespace(t, testCluster)
	ctx := clustertest.Context(t)
	_, err := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns).Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm"}}, client.CreateOptions{})
	require.NoError(t, err)
	holder := "someone"
	leases := client.For[*api.Lease](testCluster.Client).Namespace(ns)
	_, err = leases.Create(ctx, &api.Lease{ObjectMeta: api.ObjectMeta{Name: "lease"}, Spec: api.LeaseSpec{HolderIdentity: &holder}}, client.CreateOptions{})
	require.NoError(t, err)

	deleteNamespace(t, ns)
	n := waitCondition(t, ns, condition(api.NamespaceContentRemaining, api.ConditionFalse, "ContentRemoved", "All content successfully removed"))
	c := getCondition(n.Status.Conditions, api.NamespaceDeletionDiscoveryFailure)
	require.NotNil(t, c)
	assert.Equal(t, api.ConditionTrue, c.Status)
	assert.Equal(t, "DiscoveryFailed", c.Reason)
	assert.True(t, strings.HasPrefix(c.Message,
		"Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: coordination.k8s.io/v1: "), c.Message)
	assert.Equal(t, []api.FinalizerName{api.FinalizerKubernetes}, n.Spec.Finalizers, "an incomplete discovery never finalizes")
	_, err = leases.Get(ctx, "lease", client.GetOptions{})
	require.NoError(t, err, "the undiscovered group's objects are still there")
	_, err = client.For[*api.ConfigMap](testCluster.Client).Namespace(ns).Get(ctx, "cm", client.GetOptions{})
	assert.True(t, api.IsNotFound(err), "what was discovered was deleted: %v", err)

	proxy.heal()
	waitGone(t, ns)
	_, err = leases.Get(ctx, "lease", client.GetOptions{})
	assert.True(t, api.IsNotFound(err), "%v", err)
}

func TestFailedDeletionIsAContentFailureCondition(t *testing.T) {
	var ns string
	proxy := startFaultyProxy(t, func(r *http.Request) bool {
		return r.Method == http.MethodDelete && r.URL.Path == "/api/v1/namespaces/"+ns+"/configmaps"
	})
	ns = clustertest.Namespace(t, testCluster)
	startController(t, proxy.URL)
	ctx := clustertest.Context(t)
	_, err := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns).Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm"}}, client.CreateOptions{})
	require.NoError(t, err)

	deleteNamespace(t, ns)
	n := waitCondition(t, ns, condition(api.NamespaceDeletionDiscoveryFailure, api.ConditionFalse, "ResourcesDiscovered", "All resources successfully discovered"))
	require.Eventually(t, func() bool {
		n, err = namespaces().Get(ctx, ns, client.GetOptions{})
		require.NoError(t, err)
		c := getCondition(n.Status.Conditions, api.NamespaceDeletionContentFailure)
		return c != nil && c.Status == api.ConditionTrue
	}, waitFor, tick)
	c := getCondition(n.Status.Conditions, api.NamespaceDeletionContentFailure)
	assert.Equal(t, "ContentDeletionFailed", c.Reason)
	assert.True(t, strings.HasPrefix(c.Message, "Failed to delete all resource types, 1 remaining: "), c.Message)
	assert.Contains(t, c.Message, "the server is currently unable to handle the request", "the 503 of the collection DELETE")

	proxy.heal()
	waitGone(t, ns)
}

func TestPodsInTheirGracePeriodAreWaitedForThenReportedIfTheyStay(t *testing.T) {
	startController(t, testCluster.URL)
	ns := clustertest.Namespace(t, testCluster)
	ctx := clustertest.Context(t)
	pods := client.For[*api.Pod](testCluster.Client).Namespace(ns)
	grace := int64(2)
	// Bound to a node no kubelet runs: its deletion waits for a kubelet
	// that never comes, so the test plays it.
	_, err := pods.Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "slow"},
		Spec: api.PodSpec{NodeName: ns + "-node", TerminationGracePeriodSeconds: &grace,
			Containers: []api.Container{{Name: "c", Image: "nginx"}}}}, client.CreateOptions{})
	require.NoError(t, err)

	deleteNamespace(t, ns)
	// After its grace period the pod is no longer expected to go by
	// itself, and its staying is an error the conditions show.
	n := waitCondition(t, ns, condition(api.NamespaceContentRemaining, api.ConditionTrue, "SomeResourcesRemain",
		"Some resources are remaining: pods. has 1 resource instances"))
	require.Eventually(t, func() bool {
		n, err = namespaces().Get(ctx, ns, client.GetOptions{})
		require.NoError(t, err)
		c := getCondition(n.Status.Conditions, api.NamespaceDeletionContentFailure)
		return c != nil && c.Status == api.ConditionTrue
	}, waitFor, tick)
	assert.Equal(t, "Failed to delete all resource types, 1 remaining: unexpected items still remain in namespace: "+ns+" for gvr: /v1, Resource=pods",
		getCondition(n.Status.Conditions, api.NamespaceDeletionContentFailure).Message)
	p, err := pods.Get(ctx, "slow", client.GetOptions{})
	require.NoError(t, err)
	require.NotNil(t, p.DeletionTimestamp, "the pod was asked to go")

	// The kubelet's final delete.
	zero := int64(0)
	require.NoError(t, pods.Delete(ctx, "slow", api.DeleteOptions{GracePeriodSeconds: &zero}))
	waitGone(t, ns)
}

func TestAGroupVersionThatDoesNotParseIsAConditionAndDeletesNothing(t *testing.T) {
	var broken atomic.Bool
	broken.Store(true)
	startControllerWith(t, testCluster.URL, Options{DiscoverResources: func(ctx context.Context) ([]*client.APIResourceList, error) {
		lists, err := testCluster.Client.ServerPreferredNamespacedResources(ctx)
		if broken.Load() {
			lists = append(lists, &client.APIResourceList{GroupVersion: "a/b/c",
				Resources: []client.APIResource{{Name: "things", Namespaced: true, Verbs: []string{"delete", "list"}}}})
		}
		return lists, err
	}})
	ns := clustertest.Namespace(t, testCluster)
	ctx := clustertest.Context(t)
	cms := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns)
	_, err := cms.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm"}}, client.CreateOptions{})
	require.NoError(t, err)

	deleteNamespace(t, ns)
	waitCondition(t, ns, condition(api.NamespaceDeletionGVParsingFailure, api.ConditionTrue, "GroupVersionParsingFailed",
		"unexpected GroupVersion string: a/b/c"))
	_, err = cms.Get(ctx, "cm", client.GetOptions{})
	require.NoError(t, err, "with the resources unknown, nothing is deleted")

	broken.Store(false)
	waitGone(t, ns)
}
