package main

import (
	"fmt"
	"log/slog"
	"net"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"kubeloop/client"
	"kubeloop/client/leaderelection"
	"kubeloop/cluster"
	"kubeloop/cluster/full"
	"kubeloop/controllers"
)

// allComponents is what `kubeloop up` runs beside the apiserver.
func allComponents(nodes int, controllers []string, cfg controllers.ComponentConfig) (cluster.Components, error) {
	comps, err := full.Components(full.Options{Nodes: nodes, Controllers: controllers, ComponentConfig: &cfg})
	return cluster.Components{Extra: comps}, err
}

// addComponentConfigFlags registers the controllers' own flags, shared by
// `kubeloop up` and `kubeloop controller-manager`, with Kubernetes' defaults.
func addComponentConfigFlags(f *pflag.FlagSet, cfg *controllers.ComponentConfig) {
	*cfg = controllers.DefaultComponentConfig()
	f.DurationVar(&cfg.MinResyncPeriod, "min-resync-period", cfg.MinResyncPeriod,
		"the informers resync after a random period between this and twice this (the tutorial uses 30s; 0 turns resyncs off)")
	f.StringSliceVar(&cfg.LabelerNamespaces, "labeler-namespaces", nil,
		"the namespaces whose ConfigMaps the labeler keeps labelled (comma-separated; empty means all)")
	f.IntVar(&cfg.TerminatedPodGCThreshold, "terminated-pod-gc-threshold", cfg.TerminatedPodGCThreshold,
		"how many terminated pods may exist before pod GC deletes the oldest (0 or less: never)")
}

// addServiceAccountCredentialsFlag registers kube-controller-manager's
// --use-service-account-credentials, shared by `kubeloop up` and
// `kubeloop controller-manager`.
func addServiceAccountCredentialsFlag(f *pflag.FlagSet, on *bool) {
	f.BoolVar(on, "use-service-account-credentials", false,
		"run each controller with its own ServiceAccount in kube-system (a token from the TokenRequest API), holding only its system:controller:<name> role")
}

// componentCommands are the one-component-per-process commands. Each
// authenticates as its own component: --kubeconfig, else the component's
// kubeconfig in --data-dir, which `kubeloop up` and `kubeloop apiserver`
// write (controller-manager.kubeconfig, scheduler.kubeconfig) and `kubeloop
// kubelet` writes for its node (kubelet-<node>.kubeconfig). Like
// Kubernetes' components they do not read $KUBECONFIG: that is the
// admin's, and a component that fell back on it would hold every right.
func componentCommands() []*cobra.Command {
	return []*cobra.Command{controllerManagerCommand(), schedulerCommand(), kubeletCommand()}
}

// componentFlags are the flags that say where a component's kubeconfig is.
type componentFlags struct {
	kubeconfig string
	dataDir    string
}

func addComponentFlags(f *pflag.FlagSet, c *componentFlags, file string) {
	f.StringVar(&c.kubeconfig, "kubeconfig", "", "kubeconfig of the apiserver (default <data-dir>/"+file+")")
	f.StringVar(&c.dataDir, "data-dir", ".kubeloop", "the data dir of `kubeloop apiserver` or `kubeloop up`, where the component's kubeconfig is")
}

// load reads --kubeconfig, else <data-dir>/file. Unlike kubectl it does
// not fall back to ~/.kube/config: a component pointed at a real cluster
// by accident would start reconciling it.
func (c componentFlags) load(file string) (*client.Config, error) {
	path := c.kubeconfig
	if path == "" {
		path = filepath.Join(c.dataDir, file)
	}
	cfg, err := client.ConfigFromKubeconfig(path, "")
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	return cfg, nil
}

func controllerManagerCommand() *cobra.Command {
	var (
		where       componentFlags
		selection   []string
		leaderElect bool
		metrics     string
		lease       controllers.ManagerOptions
		config      controllers.ComponentConfig
	)
	cmd := &cobra.Command{
		Use:   "controller-manager",
		Short: "Run the controller manager against an apiserver",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := where.load(cluster.ControllerManagerKubeconfig)
			if err != nil {
				return err
			}
			opts := lease
			opts.Config, opts.Controllers, opts.LeaderElect = cfg, selection, leaderElect
			opts.ComponentConfig = &config
			m, err := controllers.NewManager(opts)
			if err != nil {
				return err
			}
			if metrics != "" {
				ln, err := net.Listen("tcp", metrics)
				if err != nil {
					return fmt.Errorf("metrics: %w", err)
				}
				slog.Info("serving /metrics and /healthz", "addr", ln.Addr().String())
				go m.Serve(cmd.Context(), ln)
			}
			return m.Run(cmd.Context())
		},
	}
	addComponentFlags(cmd.Flags(), &where, cluster.ControllerManagerKubeconfig)
	addServiceAccountCredentialsFlag(cmd.Flags(), &lease.UseServiceAccountCredentials)
	cmd.Flags().StringSliceVar(&selection, "controllers", []string{"*"}, `controllers to run: "*" for all, "name" to add, "-name" to remove (e.g. "*,-labeler")`)
	addComponentConfigFlags(cmd.Flags(), &config)
	cmd.Flags().BoolVar(&leaderElect, "leader-elect", false, "hold the kube-system/kube-controller-manager Lease; only the leader runs controllers")
	cmd.Flags().StringVar(&metrics, "metrics-listen", "127.0.0.1:10257", "where to serve /metrics and /healthz (empty: nowhere)")
	cmd.Flags().DurationVar(&lease.LeaseDuration, "leader-elect-lease-duration", leaderelection.DefaultLeaseDuration, "how long a lease lasts after its last renewal")
	cmd.Flags().DurationVar(&lease.RenewDeadline, "leader-elect-renew-deadline", leaderelection.DefaultRenewDeadline, "how long the leader keeps trying to renew before it gives up")
	cmd.Flags().DurationVar(&lease.RetryPeriod, "leader-elect-retry-period", leaderelection.DefaultRetryPeriod, "how often candidates try to acquire or renew")
	cmd.Flags().StringVar(&lease.LeaseNamespace, "leader-elect-resource-namespace", "kube-system", "the namespace of the lease")
	cmd.Flags().StringVar(&lease.LeaseName, "leader-elect-resource-name", "kube-controller-manager", "the name of the lease")
	return cmd
}
