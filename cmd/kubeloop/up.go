package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"kubeloop/cluster"
	"kubeloop/controllers"
)

type upFlags struct {
	dataDir       string
	listen        string
	nodes         int
	controllers   []string
	etcdEndpoints []string
	config        controllers.ComponentConfig
}

func upCommand() *cobra.Command {
	var f upFlags
	cmd := &cobra.Command{
		Use:   "up",
		Short: "Start a whole cluster in this process: etcd, apiserver, controllers, scheduler, nodes",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runUp(cmd.Context(), f)
		},
	}
	cmd.Flags().StringVar(&f.dataDir, "data-dir", ".kubeloop", "where etcd's data and the kubeconfig live; restarting with the same dir keeps every object")
	cmd.Flags().StringVar(&f.listen, "listen", "127.0.0.1:6443", "the apiserver's address")
	cmd.Flags().IntVar(&f.nodes, "nodes", 3, "how many simulated nodes to run")
	cmd.Flags().StringSliceVar(&f.controllers, "controllers", []string{"*"}, `controllers to run: "*" for all, "name" to add one, "-name" to remove one (e.g. "*,-labeler")`)
	addComponentConfigFlags(cmd.Flags(), &f.config)
	cmd.Flags().StringSliceVar(&f.etcdEndpoints, "etcd-endpoints", nil, "an external etcd cluster (comma-separated URLs); empty runs an embedded etcd")
	return cmd
}

func runUp(ctx context.Context, f upFlags) error {
	dir, err := filepath.Abs(f.dataDir)
	if err != nil {
		return err
	}
	comps, err := allComponents(f.nodes, f.controllers, f.config)
	if err != nil {
		return err
	}
	c, err := cluster.Start(ctx, cluster.Options{
		DataDir:       dir,
		Listen:        f.listen,
		EtcdEndpoints: f.etcdEndpoints,
		Components:    comps,
	})
	if err != nil {
		if ctx.Err() != nil {
			// Stopped while starting: that is a clean stop too.
			return nil
		}
		return err
	}
	defer c.Stop()
	fmt.Printf("\nkubeloop is serving at %s\n\n  export KUBECONFIG=%s\n  kubectl get namespaces\n  kubectl get pods -A\n\nPress Ctrl-C to stop.\n\n",
		c.URL, c.KubeconfigPath)
	slog.Info("kubeloop is ready", "url", c.URL, "kubeconfig", c.KubeconfigPath,
		"components", strings.Join(componentNames(comps), ","))
	<-ctx.Done()
	slog.Info("stopping")
	c.Stop()
	slog.Info("stopped")
	return nil
}

func componentNames(c cluster.Components) []string {
	var out []string
	for _, x := range c.Extra {
		out = append(out, x.Name)
	}
	return out
}
