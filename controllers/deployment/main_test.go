package deployment_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
	"kubeloop/cluster/full"
	"kubeloop/kubelet"
)

// The scenario tests share one whole cluster: apiserver, the controller
// manager with every default controller (so the ReplicaSet controller
// makes the pods), the scheduler and testNodes simulated nodes. Tests
// isolate themselves by namespace; TestManagerKilledMidRolloutConverges
// stops and restarts the manager, so the tests do not run in parallel.
var testCluster *cluster.Cluster

const testNodes = 4

func TestMain(m *testing.M) {
	comps, err := full.Components(full.Options{Nodes: testNodes, Kubelet: testKubelet()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	clustertest.Main(m, cluster.Options{Components: cluster.Components{Extra: comps}},
		func(c *cluster.Cluster) { testCluster = c })
}

// testKubelet starts containers after a short delay, so that a rollout
// takes many steps and its limits are exercised, and backs off crashes in
// milliseconds.
func testKubelet() kubelet.Options {
	return kubelet.Options{
		StartDelay:         30 * time.Millisecond,
		HeartbeatInterval:  200 * time.Millisecond,
		NodeStatusInterval: 200 * time.Millisecond,
		PLEGPeriod:         50 * time.Millisecond,
		RestartBackoffBase: 100 * time.Millisecond,
		RestartBackoffMax:  400 * time.Millisecond,
	}
}
