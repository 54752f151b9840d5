// Package full starts the standard kubeloop cluster: the API (package
// cluster) plus the controller manager, the scheduler and simulated nodes.
// It is what `kubeloop up` and `make run` start, and what tests of whole
// scenarios (kubectl-lite, exercises, conformance) use:
//
//	c, err := full.Start(ctx, cluster.Options{}, full.Options{Nodes: 3})
//
// It is separate from package cluster so that the components' own tests
// can start a cluster (with just the component under test) without an
// import cycle.
package full

import (
	"context"
	"fmt"

	"kubeloop/cluster"
	"kubeloop/controllers"
)

// Options choose the standard components.
type Options struct {
	// Controllers selects what the controller manager runs ("*" = all,
	// "-name" removes one). Empty means all.
	Controllers []string
	// Nodes is the number of simulated nodes.
	Nodes int
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

// Components returns the standard components, in start order.
func Components(opts Options) ([]cluster.Component, error) {
	cm, err := ControllerManager(opts.Controllers)
	if err != nil {
		return nil, err
	}
	return []cluster.Component{cm}, nil
}

// ControllerManager is the controller manager as a cluster component.
func ControllerManager(selection []string) (cluster.Component, error) {
	if len(selection) == 0 {
		selection = []string{"*"}
	}
	if _, err := controllers.Enabled(selection, controllers.KnownControllers()); err != nil {
		return cluster.Component{}, fmt.Errorf("controller manager: %w", err)
	}
	return cluster.Component{Name: ControllerManagerName, Run: func(ctx context.Context, c *cluster.Cluster) error {
		m, err := controllers.NewManager(controllers.ManagerOptions{Config: c.Config, Controllers: selection})
		if err != nil {
			return err
		}
		return m.Run(ctx)
	}}, nil
}
