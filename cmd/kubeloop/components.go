package main

import (
	"fmt"
	"net"

	"github.com/spf13/cobra"

	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/full"
	"kubeloop/controllers"
)

// allComponents is what `kubeloop up` runs beside the apiserver.
func allComponents(nodes int) (cluster.Components, error) {
	comps, err := full.Components(full.Options{Nodes: nodes})
	return cluster.Components{Extra: comps}, err
}

// componentCommands are the one-component-per-process commands. Each
// reads a kubeconfig (--kubeconfig, else $KUBECONFIG, else
// .kubeloop/kubeconfig as written by `kubeloop up` or `kubeloop apiserver`).
func componentCommands() []*cobra.Command {
	return []*cobra.Command{controllerManagerCommand()}
}

func loadConfig(path string) (*client.Config, error) {
	if path == "" {
		if paths, err := client.KubeconfigPaths(); err == nil && len(paths) > 0 {
			return client.ConfigFromKubeconfig("", "")
		}
		path = ".kubeloop/kubeconfig"
	}
	cfg, err := client.ConfigFromKubeconfig(path, "")
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	return cfg, nil
}

func controllerManagerCommand() *cobra.Command {
	var (
		kubeconfig  string
		selection   []string
		leaderElect bool
		metrics     string
	)
	cmd := &cobra.Command{
		Use:   "controller-manager",
		Short: "Run the controller manager against an apiserver",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig(kubeconfig)
			if err != nil {
				return err
			}
			m, err := controllers.NewManager(controllers.ManagerOptions{
				Config: cfg, Controllers: selection, LeaderElect: leaderElect,
			})
			if err != nil {
				return err
			}
			if metrics != "" {
				ln, err := net.Listen("tcp", metrics)
				if err != nil {
					return err
				}
				go m.Serve(cmd.Context(), ln)
			}
			return m.Run(cmd.Context())
		},
	}
	cmd.Flags().StringVar(&kubeconfig, "kubeconfig", "", "kubeconfig of the apiserver (default $KUBECONFIG, else .kubeloop/kubeconfig)")
	cmd.Flags().StringSliceVar(&selection, "controllers", []string{"*"}, `controllers to run: "*" for all, "name" to add, "-name" to remove`)
	cmd.Flags().BoolVar(&leaderElect, "leader-elect", false, "hold the kube-system/kube-controller-manager Lease; only the leader runs controllers")
	cmd.Flags().StringVar(&metrics, "metrics-listen", "127.0.0.1:10257", "where to serve /metrics and /healthz (empty: nowhere)")
	return cmd
}
