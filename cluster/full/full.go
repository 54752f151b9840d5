package full

import (
	"context"
	"fmt"
	"slices"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/cluster"
	"kubeloop/controllers"
	"kubeloop/controllers/nodelifecycle"
	"kubeloop/controllers/podgc"
	"kubeloop/informers"
	"kubeloop/kubelet"
	"kubeloop/scheduler"
)

// Options choose the standard components.
type Options struct {
	// Controllers selects what the controller manager runs ("*" = all,
	// "-name" removes one). Empty means all.
	Controllers []string
	// ComponentConfig holds the controllers' flags (--min-resync-period,
	// --labeler-namespaces, ...); nil means Kubernetes' defaults.
	ComponentConfig *controllers.ComponentConfig
	// Nodes is the number of simulated nodes.
	Nodes int
	// Scheduler tunes the scheduler.
	Scheduler scheduler.Options
	// Kubelet is the template of every node's options; NodeName and
	// PodCIDR are filled in per node.
	Kubelet kubelet.Options
	// NodeLifecycle, when set, replaces the node lifecycle controller's
	// options (kube-controller-manager's --node-monitor-grace-period and
	// friends); tests use it for timings of a second instead of minutes.
	// Its MetricsProvider is always the manager's.
	NodeLifecycle *nodelifecycle.Options
	// PodGC, when set, replaces the pod GC controller's options (its
	// 20 s sweep and 40 s quarantine); its MetricsProvider is always the
	// manager's and its threshold that of ComponentConfig.
	PodGC *podgc.Options
}

// ControllerManagerName is the controller manager's component name, for
// Cluster.StopComponent.
const ControllerManagerName = "controller-manager"

// Start starts a cluster with the standard components added to base's.
func Start(ctx context.Context, base cluster.Options, opts Options) (*cluster.Cluster, error) {
	comps, err := Components(opts)
	if err != nil {
		return nil, err
	}
	base.Components.Extra = append(comps, base.Components.Extra...)
	return cluster.Start(ctx, base)
}

// Components returns the standard components, in start order. They share
// one process, so their pod caches hold one copy of each pod version
// between them (informers.SharedObjects), unless opts set tables of their
// own.
func Components(opts Options) ([]cluster.Component, error) {
	shared := informers.NewSharedObjects()
	if opts.Scheduler.SharedObjects == nil {
		opts.Scheduler.SharedObjects = shared
	}
	if opts.Kubelet.SharedObjects == nil {
		opts.Kubelet.SharedObjects = shared
	}
	cm, err := controllerManager(opts.Controllers, knownControllers(opts), opts.ComponentConfig, shared)
	if err != nil {
		return nil, err
	}
	comps := []cluster.Component{cm, Scheduler(opts.Scheduler)}
	for i := 0; i < opts.Nodes; i++ {
		comps = append(comps, Node(NodeName(i), i, opts.Kubelet))
	}
	return comps, nil
}

// SchedulerName is the scheduler's component name.
const SchedulerName = "scheduler"

// Scheduler is the scheduler as a cluster component, with informers and an
// event recorder of its own, as if it ran in its own process.
func Scheduler(opts scheduler.Options) cluster.Component {
	return cluster.Component{Name: SchedulerName, Run: func(ctx context.Context, c *cluster.Cluster) error {
		cl, err := c.NewComponentClient(SchedulerName, user.KubeScheduler)
		if err != nil {
			return err
		}
		return scheduler.RunStandalone(ctx, cl, opts)
	}}
}

// NodeName is the name of the i-th simulated node: node-1, node-2, ...
func NodeName(i int) string { return fmt.Sprintf("node-%d", i+1) }

// KubeletComponentName is the component name of a node's kubelet, for
// Cluster.StopComponent (simulating a lost node).
func KubeletComponentName(node string) string { return "kubelet-" + node }

// Node is one simulated node's kubelet as a cluster component. index picks
// its pod CIDR (10.244.<index>.0/24) so pod IPs never collide.
func Node(name string, index int, template kubelet.Options) cluster.Component {
	opts := template
	opts.NodeName = name
	if opts.PodCIDR == "" {
		opts.PodCIDR = fmt.Sprintf("10.%d.%d.0/24", 244+index/256, index%256)
	}
	return cluster.Component{Name: KubeletComponentName(name), Run: func(ctx context.Context, c *cluster.Cluster) error {
		cl, err := c.NewComponentClient(KubeletComponentName(name), cluster.NodeUser(name), user.NodesGroup)
		if err != nil {
			return err
		}
		kl, err := kubelet.New(cl, opts)
		if err != nil {
			return err
		}
		return kl.Run(ctx)
	}}
}

// ControllerManager is the controller manager as a cluster component.
func ControllerManager(selection []string) (cluster.Component, error) {
	return controllerManager(selection, controllers.KnownControllers(), nil, nil)
}

// knownControllers is the manager's table with opts' overrides applied.
func knownControllers(opts Options) map[string]controllers.InitFunc {
	known := controllers.KnownControllers()
	if opts.NodeLifecycle != nil {
		nl := *opts.NodeLifecycle
		known["nodelifecycle"] = func(cc controllers.Context) (controllers.Runner, error) {
			o := nl
			o.MetricsProvider = cc.Metrics
			return nodelifecycle.NewController(cc.Client,
				informers.For[*api.Node](cc.Informers), informers.For[*api.Lease](cc.Informers), informers.For[*api.Pod](cc.Informers),
				cc.Recorder, o), nil
		}
	}
	if opts.PodGC != nil {
		pg := *opts.PodGC
		known["podgc"] = func(cc controllers.Context) (controllers.Runner, error) {
			o := pg
			o.MetricsProvider = cc.Metrics
			o.TerminatedPodThreshold = cc.ComponentConfig.TerminatedPodGCThreshold
			return podgc.NewController(cc.Client, informers.For[*api.Pod](cc.Informers), informers.For[*api.Node](cc.Informers), o), nil
		}
	}
	return known
}

func controllerManager(selection []string, known map[string]controllers.InitFunc, cfg *controllers.ComponentConfig, shared *informers.SharedObjects) (cluster.Component, error) {
	if len(selection) == 0 {
		selection = []string{"*"}
	}
	enabled, err := controllers.Enabled(selection, known)
	if err != nil {
		return cluster.Component{}, fmt.Errorf("controller manager: %w", err)
	}
	// With the serviceaccount controller every namespace gets its default
	// account, so the cluster may turn ServiceAccount admission on.
	makesAccounts := slices.Contains(enabled, "serviceaccount")
	return cluster.Component{Name: ControllerManagerName, ServiceAccounts: makesAccounts, Run: func(ctx context.Context, c *cluster.Cluster) error {
		cmCfg, err := c.ComponentConfig(ControllerManagerName, user.KubeControllerManager)
		if err != nil {
			return err
		}
		m, err := controllers.NewManager(controllers.ManagerOptions{Config: cmCfg, Controllers: selection, Known: known, ComponentConfig: cfg,
			UseServiceAccountCredentials: c.UseServiceAccountCredentials(), SharedObjects: shared})
		if err != nil {
			return err
		}
		return m.Run(ctx)
	}}, nil
}
