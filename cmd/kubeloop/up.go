package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"kubeloop/cluster"
	"kubeloop/controllers"
)

type upFlags struct {
	servingFlags
	nodes       int
	controllers []string
	config      controllers.ComponentConfig
	// useServiceAccountCredentials is kube-controller-manager's flag.
	useServiceAccountCredentials bool
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
	addServingFlags(cmd.Flags(), &f.servingFlags)
	cmd.Flags().IntVar(&f.nodes, "nodes", 3, "how many simulated nodes to run")
	cmd.Flags().StringSliceVar(&f.controllers, "controllers", []string{"*"}, `controllers to run: "*" for all, "name" to add one, "-name" to remove one (e.g. "*,-labeler")`)
	addComponentConfigFlags(cmd.Flags(), &f.config)
	addServiceAccountCredentialsFlag(cmd.Flags(), &f.useServiceAccountCredentials)
	return cmd
}

func runUp(ctx context.Context, f upFlags) error {
	opts, err := f.options()
	if err != nil {
		return err
	}
	opts.UseServiceAccountCredentials = f.useServiceAccountCredentials
	if opts.Components, err = allComponents(f.nodes, f.controllers, f.config); err != nil {
		return err
	}
	c, err := cluster.Start(ctx, opts)
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
		"components", strings.Join(componentNames(opts.Components), ","))
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
