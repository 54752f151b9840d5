package rootcacertpublisher

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

var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{}, func(c *cluster.Cluster) { testCluster = c })
}

const rootCA = "-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n"

// Every namespace gets kube-root-ca.crt; a deleted or edited one comes back.
func TestEveryNamespaceGetsTheRootCA(t *testing.T) {
	cl, err := testCluster.NewClient("publisher-test")
	require.NoError(t, err)
	factory := informers.NewClientInformerFactory(cl, 0, nil)
	p := NewPublisher(cl, informers.For[*api.ConfigMap](factory), informers.For[*api.Namespace](factory), []byte(rootCA), Options{})
	t.Cleanup(factory.Shutdown)
	clustertest.Go(t, func(ctx context.Context) {
		factory.Start(ctx)
		p.Run(ctx, 1)
	})
	ctx := clustertest.Context(t)
	ns := clustertest.Namespace(t, testCluster)
	cms := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns)
	published := func() *api.ConfigMap {
		var cm *api.ConfigMap
		require.Eventually(t, func() bool {
			got, err := cms.Get(ctx, RootCACertConfigMapName, client.GetOptions{})
			if err != nil || got.Data["ca.crt"] != rootCA || len(got.Data) != 1 {
				return false
			}
			cm = got
			return true
		}, 30*time.Second, 20*time.Millisecond)
		return cm
	}
	cm := published()
	assert.Contains(t, cm.Annotations["kubernetes.io/description"], "verify the kube-apiserver")

	cm.Data = map[string]string{"ca.crt": "tampered", "extra": "x"}
	_, err = cms.Update(ctx, cm, client.UpdateOptions{})
	require.NoError(t, err)
	published()

	require.NoError(t, cms.Delete(ctx, RootCACertConfigMapName, api.DeleteOptions{}))
	published()
}
