package main

import (
	"github.com/spf13/cobra"

	"kubeloop/client"
	"kubeloop/client/leaderelection"
	"kubeloop/cluster"
	"kubeloop/kubelet"
	"kubeloop/scheduler"
)

func schedulerCommand() *cobra.Command {
	var (
		where       componentFlags
		leaderElect bool
		lease       scheduler.LeaderElectionConfig
	)
	cmd := &cobra.Command{
		Use:   "scheduler",
		Short: "Run the scheduler against an apiserver",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := where.load(cluster.SchedulerKubeconfig)
			if err != nil {
				return err
			}
			c, err := client.NewForConfig(cfg.ForComponent("scheduler"))
			if err != nil {
				return err
			}
			if leaderElect {
				return scheduler.RunWithLeaderElection(cmd.Context(), c, scheduler.Options{}, lease)
			}
			return scheduler.RunStandalone(cmd.Context(), c, scheduler.Options{})
		},
	}
	f := cmd.Flags()
	addComponentFlags(f, &where, cluster.SchedulerKubeconfig)
	f.BoolVar(&leaderElect, "leader-elect", false, "hold the kube-system/kube-scheduler Lease; only the leader schedules")
	f.DurationVar(&lease.LeaseDuration, "leader-elect-lease-duration", leaderelection.DefaultLeaseDuration, "how long a lease lasts after its last renewal")
	f.DurationVar(&lease.RenewDeadline, "leader-elect-renew-deadline", leaderelection.DefaultRenewDeadline, "how long the leader keeps trying to renew before it gives up")
	f.DurationVar(&lease.RetryPeriod, "leader-elect-retry-period", leaderelection.DefaultRetryPeriod, "how often candidates try to acquire or renew")
	f.StringVar(&lease.Namespace, "leader-elect-resource-namespace", "kube-system", "the namespace of the lease")
	f.StringVar(&lease.Name, "leader-elect-resource-name", "kube-scheduler", "the name of the lease")
	return cmd
}

func kubeletCommand() *cobra.Command {
	var (
		where componentFlags
		opts  kubelet.Options
	)
	cmd := &cobra.Command{
		Use:   "kubelet",
		Short: "Run one simulated node against an apiserver",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if where.kubeconfig == "" {
				// Without TLS bootstrapping, the node's certificate comes
				// from the data dir's CA (see cluster.WriteKubeletKubeconfig).
				if _, err := cluster.WriteKubeletKubeconfig(where.dataDir, opts.NodeName); err != nil {
					return err
				}
			}
			cfg, err := where.load(cluster.KubeletKubeconfig(opts.NodeName))
			if err != nil {
				return err
			}
			c, err := client.NewForConfig(cfg.ForComponent("kubelet"))
			if err != nil {
				return err
			}
			kl, err := kubelet.New(c, opts)
			if err != nil {
				return err
			}
			return kl.Run(cmd.Context())
		},
	}
	f := cmd.Flags()
	addComponentFlags(f, &where, "kubelet-<node-name>.kubeconfig, written from the data dir's CA")
	f.StringVar(&opts.NodeName, "node-name", "", "the node's name (required)")
	f.StringVar(&opts.CPU, "cpu", "4", "the node's cpu capacity")
	f.StringVar(&opts.Memory, "memory", "8Gi", "the node's memory capacity")
	f.IntVar(&opts.Pods, "max-pods", 110, "how many pods the node accepts")
	f.StringVar(&opts.PodCIDR, "pod-cidr", "", "the node's pod range, e.g. 10.244.7.0/24 (default: derived from the name)")
	f.DurationVar(&opts.StartDelay, "start-delay", 0, "how long a simulated container takes to start")
	_ = cmd.MarkFlagRequired("node-name")
	return cmd
}
