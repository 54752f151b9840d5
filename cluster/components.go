package cluster

import (
	"context"
	"fmt"

	"kubeloop/controllers"
)

// Components says which loops run beside the apiserver. The zero value runs
// none: an API-only cluster, which is what API tests want.
type Components struct {
	// ControllerManager runs the controller manager with these controllers
	// ("*" = all, "-name" removes one); nil runs none.
	Controllers []string
	// Extra components, started after the built-in ones.
	Extra []Component
}

// Full is what `kubeloop up` runs: every controller, the scheduler and
// nodes simulated nodes.
func Full(nodes int) Components {
	_ = nodes
	return Components{Controllers: []string{"*"}}
}

// Component is one loop started by the cluster, with a client of its own.
type Component struct {
	Name string
	Run  func(ctx context.Context, c *Cluster) error
}

// ControllerManagerName is the component name of the controller manager,
// for StopComponent and StartControllerManager.
const ControllerManagerName = "controller-manager"

func (c *Cluster) startComponents(_ context.Context, comps Components) error {
	if comps.Controllers != nil {
		if err := c.StartControllerManager(comps.Controllers); err != nil {
			return err
		}
	}
	for _, comp := range comps.Extra {
		c.startComponent(comp)
	}
	return nil
}

func (c *Cluster) startComponent(comp Component) {
	c.run(comp.Name, func(ctx context.Context) {
		if err := comp.Run(ctx, c); err != nil && ctx.Err() == nil {
			c.log.Error("component stopped", "component", comp.Name, "err", err)
		}
	})
}

// StartControllerManager starts a controller manager running the selected
// controllers; tests use it to start a fresh one after StopComponent.
func (c *Cluster) StartControllerManager(selection []string) error {
	m, err := controllers.NewManager(controllers.ManagerOptions{Config: c.Config, Controllers: selection})
	if err != nil {
		return fmt.Errorf("cluster: controller manager: %w", err)
	}
	c.startComponent(Component{Name: ControllerManagerName, Run: func(ctx context.Context, _ *Cluster) error {
		return m.Run(ctx)
	}})
	return nil
}
