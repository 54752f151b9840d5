package ttlafterfinished

import (
	"context"
	"testing"
	"time"

	"kubeloop/api"
	"kubeloop/client/record"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
	"kubeloop/controllers/garbagecollector"
	"kubeloop/controllers/job"
	"kubeloop/informers"
	"kubeloop/kubelet"
	"kubeloop/scheduler"
)

const (
	waitFor = 60 * time.Second
	tick    = 25 * time.Millisecond
)

// testCluster runs what a finished Job's clean-up needs: this controller,
// the Job controller (which finishes Jobs and frees their pods of the
// tracking finalizer), the garbage collector (which deletes the pods of a
// deleted Job), the scheduler and one node.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{Components: cluster.Components{Extra: []cluster.Component{
		{Name: ControllerName, Run: runControllers},
		{Name: "scheduler", Run: func(ctx context.Context, c *cluster.Cluster) error {
			cl, err := c.NewClient("scheduler")
			if err != nil {
				return err
			}
			return scheduler.RunStandalone(ctx, cl, scheduler.Options{})
		}},
		{Name: "kubelet", Run: func(ctx context.Context, c *cluster.Cluster) error {
			cl, err := c.NewClient("kubelet-ttl-node")
			if err != nil {
				return err
			}
			kl, err := kubelet.New(cl, kubelet.Options{NodeName: "ttl-node", PLEGPeriod: 50 * time.Millisecond,
				HeartbeatInterval: 200 * time.Millisecond, NodeStatusInterval: 200 * time.Millisecond})
			if err != nil {
				return err
			}
			return kl.Run(ctx)
		}},
	}}}, func(c *cluster.Cluster) { testCluster = c })
}

// runControllers runs the three controllers on one shared informer
// factory, as the controller manager would.
func runControllers(ctx context.Context, c *cluster.Cluster) error {
	cl, err := c.NewClient(ControllerName)
	if err != nil {
		return err
	}
	factory := informers.NewClientInformerFactory(cl, 0, nil)
	rec := record.NewRecorder(cl, job.ControllerName, "")
	jm := job.NewController(cl, informers.For[*api.Job](factory), informers.For[*api.Pod](factory), rec, job.Options{})
	tc := New(cl, informers.For[*api.Job](factory), Options{})
	gc := garbagecollector.NewController(cl, factory, garbagecollector.Options{})
	done := make(chan struct{}, 4)
	go func() { rec.Run(ctx); done <- struct{}{} }()
	factory.Start(ctx)
	go func() { jm.Run(ctx, 2); done <- struct{}{} }()
	go func() { gc.Run(ctx, 2); done <- struct{}{} }()
	tc.Run(ctx, 2)
	for range 3 {
		<-done
	}
	factory.Shutdown()
	return nil
}
