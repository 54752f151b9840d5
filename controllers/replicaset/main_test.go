package replicaset

import (
	"context"
	"testing"

	"kubeloop/api"
	"kubeloop/client/record"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
	"kubeloop/informers"
)

// isolatedLabel marks ReplicaSets and pods the shared controller leaves
// alone, because their test runs a controller of its own (delayed watch,
// counted writes).
const isolatedLabel = "kubeloop.test/isolated"

// testCluster is one apiserver + etcd for the package, with the production
// wiring of the controller as its only component. Tests isolate themselves
// by namespace.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{Components: cluster.Components{Extra: []cluster.Component{
		{Name: ControllerName, Run: runSharedController},
	}}}, func(c *cluster.Cluster) { testCluster = c })
}

// runSharedController wires the controller as the controller manager does:
// one shared informer factory, an event recorder, default options.
func runSharedController(ctx context.Context, c *cluster.Cluster) error {
	cl, err := c.NewClient(ControllerName)
	if err != nil {
		return err
	}
	factory := informers.NewClientInformerFactory(cl, 0, func(o *api.ListOptions) {
		o.LabelSelector = "!" + isolatedLabel
	})
	rec := record.NewRecorder(cl, ControllerName, "")
	rsc := NewController(cl, informers.For[*api.ReplicaSet](factory), informers.For[*api.Pod](factory), rec, Options{})
	done := make(chan struct{})
	go func() { defer close(done); rec.Run(ctx) }()
	factory.Start(ctx)
	rsc.Run(ctx, 5)
	factory.Shutdown()
	<-done
	return nil
}
