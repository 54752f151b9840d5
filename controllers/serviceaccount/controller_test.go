package serviceaccount

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
	"kubeloop/informers"
)

// testCluster is an API-only cluster; each test runs its own controller.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{}, func(c *cluster.Cluster) { testCluster = c })
}

const (
	waitFor = 30 * time.Second
	tick    = 20 * time.Millisecond
)

// startController runs a controller with one worker (so namespaces are
// synced in the order they were queued) until the test ends.
func startController(t *testing.T) {
	t.Helper()
	cl, err := testCluster.NewClient("serviceaccount-test")
	require.NoError(t, err)
	factory := informers.NewClientInformerFactory(cl, 0, nil)
	ctrl := NewController(cl, informers.For[*api.ServiceAccount](factory), informers.For[*api.Namespace](factory), Options{})
	t.Cleanup(factory.Shutdown)
	clustertest.Go(t, func(ctx context.Context) {
		factory.Start(ctx)
		ctrl.Run(ctx, 1)
	})
}

func serviceAccounts(ns string) *client.Resource[*api.ServiceAccount] {
	return client.For[*api.ServiceAccount](testCluster.Client).Namespace(ns)
}

// waitDefault waits for the namespace's default ServiceAccount.
func waitDefault(t *testing.T, ns string, not ...string) *api.ServiceAccount {
	t.Helper()
	var sa *api.ServiceAccount
	require.Eventually(t, func() bool {
		got, err := serviceAccounts(ns).Get(clustertest.Context(t), "default", client.GetOptions{})
		if err != nil {
			return false
		}
		for _, uid := range not {
			if got.UID == uid {
				return false
			}
		}
		sa = got
		return true
	}, waitFor, tick, "namespace %s never gets its default ServiceAccount", ns)
	return sa
}

func TestEveryNamespaceGetsADefaultServiceAccount(t *testing.T) {
	before := clustertest.Namespace(t, testCluster)
	startController(t)
	after := clustertest.Namespace(t, testCluster)
	waitDefault(t, before)
	waitDefault(t, after)
	waitDefault(t, api.NamespaceDefault)
	waitDefault(t, api.NamespaceSystem)
}

func TestADeletedDefaultServiceAccountIsRecreated(t *testing.T) {
	startController(t)
	ns := clustertest.Namespace(t, testCluster)
	first := waitDefault(t, ns)
	require.NoError(t, serviceAccounts(ns).Delete(clustertest.Context(t), "default", api.DeleteOptions{}))
	second := waitDefault(t, ns, first.UID)
	assert.NotEqual(t, first.UID, second.UID, "a new one")
}

func TestAServiceAccountThatExistsIsKept(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	mine, err := serviceAccounts(ns).Create(clustertest.Context(t), &api.ServiceAccount{
		ObjectMeta: api.ObjectMeta{Name: "default", Labels: map[string]string{"made-by": "me"}}}, client.CreateOptions{})
	require.NoError(t, err)
	startController(t)
	// A later namespace's default is created after ns has been synced
	// (one worker, queued in the informer's order).
	later := clustertest.Namespace(t, testCluster)
	waitDefault(t, later)
	got, err := serviceAccounts(ns).Get(clustertest.Context(t), "default", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, mine.UID, got.UID)
	assert.Equal(t, mine.ResourceVersion, got.ResourceVersion, "not rewritten")
}

func TestATerminatingNamespaceGetsNoServiceAccount(t *testing.T) {
	startController(t)
	doomed := clustertest.Namespace(t, testCluster)
	live := clustertest.Namespace(t, testCluster)
	waitDefault(t, doomed)
	first := waitDefault(t, live)
	// Nothing empties namespaces here (no namespace controller): doomed
	// stays Terminating, with its ServiceAccount deleted by hand.
	require.NoError(t, client.For[*api.Namespace](testCluster.Client).Delete(clustertest.Context(t), doomed, api.DeleteOptions{}))
	require.NoError(t, serviceAccounts(doomed).Delete(clustertest.Context(t), "default", api.DeleteOptions{}))
	require.NoError(t, serviceAccounts(live).Delete(clustertest.Context(t), "default", api.DeleteOptions{}))
	waitDefault(t, live, first.UID)
	_, err := serviceAccounts(doomed).Get(clustertest.Context(t), "default", client.GetOptions{})
	assert.True(t, api.IsNotFound(err), "a terminating namespace gets nothing new: %v", err)
}
