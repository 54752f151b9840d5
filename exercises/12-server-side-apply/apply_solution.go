//go:build solution

package apply

import (
	"context"
	"encoding/json"
	"fmt"

	"kubeloop/api"
	"kubeloop/client"
)

// applyConfiguration builds maps rather than an api.Deployment: a typed
// object would send every field it has, zero values included, and the
// operator would own them all (client-go's apply configurations are
// all-pointer types for the same reason).
func applyConfiguration(app WebApp) map[string]any {
	labels := map[string]any{"app": app.Name}
	for k, v := range app.Labels {
		labels[k] = v
	}
	spec := map[string]any{
		"selector": map[string]any{"matchLabels": map[string]any{"app": app.Name}},
		"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": app.Name}},
			"spec": map[string]any{"containers": []any{
				map[string]any{"name": ContainerName, "image": app.Image},
			}},
		},
	}
	if app.Replicas != nil {
		spec["replicas"] = *app.Replicas
	}
	return map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   map[string]any{"name": app.Name, "namespace": app.Namespace, "labels": labels},
		"spec":       spec,
	}
}

// Apply yields on a conflict: the other manager's value stays, and the
// operator stops claiming the field, until it is told to force.
func Apply(ctx context.Context, c *client.Client, app WebApp) (Result, error) {
	cfg := applyConfiguration(app)
	d, err := sendApply(ctx, c, app, cfg)
	if err == nil {
		return Result{Deployment: d}, nil
	}
	fields := conflictingFields(err)
	if app.ForceConflicts || len(fields) == 0 {
		return Result{}, err
	}
	for _, f := range fields {
		removeField(cfg, f)
	}
	d, err = sendApply(ctx, c, app, cfg)
	if err != nil {
		return Result{}, err
	}
	return Result{Deployment: d, Yielded: fields}, nil
}

func sendApply(ctx context.Context, c *client.Client, app WebApp, cfg map[string]any) (*api.Deployment, error) {
	body, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	opts := client.PatchOptions{FieldManager: FieldManager}
	if app.ForceConflicts {
		force := true
		opts.Force = &force
	}
	d, err := client.For[*api.Deployment](c).Namespace(app.Namespace).Patch(ctx, app.Name, client.ApplyPatchType, body, opts)
	if err != nil {
		return nil, fmt.Errorf("apply %s/%s: %w", app.Namespace, app.Name, err)
	}
	return d, nil
}
