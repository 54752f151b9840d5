package cluster

import (
	"context"
)

// Components says which loops run beside the apiserver. The zero value runs
// none: an API-only cluster.
type Components struct {
	// Extra components, started in order with a client of their own.
	// Controller manager, scheduler and kubelets register here as they are
	// built; see the fields below.
	Extra []Component
}

// Component is one loop started by the cluster.
type Component struct {
	Name string
	Run  func(ctx context.Context, c *Cluster) error
}

func (c *Cluster) startComponents(_ context.Context, comps Components) error {
	for _, comp := range comps.Extra {
		comp := comp
		c.run(comp.Name, func(ctx context.Context) {
			if err := comp.Run(ctx, c); err != nil && ctx.Err() == nil {
				c.log.Error("component stopped", "component", comp.Name, "err", err)
			}
		})
	}
	return nil
}
