package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"kubeloop/api"
	"kubeloop/client"
)

func newDeleteCommand(f *factory) *cobra.Command {
	var (
		files   []string
		cascade string
		wait    bool
		timeout time.Duration
	)
	c := &cobra.Command{
		Use:   "delete (TYPE NAME... | TYPE/NAME... | -f FILE)",
		Short: "Delete objects by name or by file",
		RunE: func(c *cobra.Command, args []string) error {
			policy, ok := map[string]api.DeletionPropagation{
				"background": api.DeletePropagationBackground, "true": api.DeletePropagationBackground,
				"foreground": api.DeletePropagationForeground, "orphan": api.DeletePropagationOrphan, "false": api.DeletePropagationOrphan,
			}[cascade]
			if !ok {
				return usageErrorf("invalid cascade value (%s). Must be \"background\", \"foreground\", or \"orphan\"", cascade)
			}
			var targets []target
			var namespaces []string
			switch {
			case len(files) > 0 && len(args) > 0:
				return usageErrorf("cannot specify both -f and resource names")
			case len(files) > 0:
				ms, err := readManifests(f, files, f.Namespace())
				if err != nil {
					return err
				}
				for _, m := range ms {
					targets, namespaces = append(targets, target{m.info, m.name()}), append(namespaces, m.namespace())
				}
			default:
				ts, err := parseTargets(args, false)
				if err != nil {
					return err
				}
				targets = ts
				for range ts {
					namespaces = append(namespaces, f.Namespace())
				}
			}
			cli, err := f.Client()
			if err != nil {
				return err
			}
			ctx := c.Context()
			if timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, timeout)
				defer cancel()
			}
			opts := api.DeleteOptions{PropagationPolicy: &policy}
			return deleteAll(ctx, f, cli, targets, namespaces, opts, wait)
		},
	}
	c.Flags().StringSliceVarP(&files, "filename", "f", nil, "delete the objects in these files")
	c.Flags().StringVar(&cascade, "cascade", "background", "background, foreground or orphan: what happens to dependents")
	c.Flags().BoolVar(&wait, "wait", true, "wait until the objects are gone (finalizers done)")
	c.Flags().DurationVar(&timeout, "timeout", 0, "give up waiting after this long (0 = no limit)")
	return c
}

// deleteAll deletes every target, printing `pod "x" deleted` for each, then
// waits for them to disappear if asked. Like kubectl it goes on after a
// failure and exits 1 at the end.
func deleteAll(ctx context.Context, f *factory, cli *client.Client, targets []target, namespaces []string, opts api.DeleteOptions, wait bool) error {
	failed := false
	var deleted []*client.DynamicResource
	var names []string
	for i, t := range targets {
		d := resourceClient(cli, t.info, namespaces[i])
		if err := d.Delete(ctx, t.name, opts); err != nil {
			fmt.Fprintln(f.streams.ErrOut, errorMessage(err))
			failed = true
			continue
		}
		fmt.Fprintf(f.streams.Out, "%s %q deleted\n", qualifiedKind(t.info), t.name)
		deleted, names = append(deleted, d), append(names, t.name)
	}
	if wait {
		for i, d := range deleted {
			if err := waitForDeletion(ctx, d, names[i]); err != nil {
				fmt.Fprintln(f.streams.ErrOut, errorMessage(err))
				failed = true
			}
		}
	}
	if failed {
		return reportedError{}
	}
	return nil
}

func newScaleCommand(f *factory) *cobra.Command {
	var (
		replicas int32
		wait     bool
	)
	c := &cobra.Command{
		Use:   "scale TYPE NAME --replicas N [--wait]",
		Short: "Set the number of replicas through the scale subresource",
		RunE: func(c *cobra.Command, args []string) error {
			if !c.Flags().Changed("replicas") {
				return usageErrorf("the --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0")
			}
			ts, err := parseTargets(args, false)
			if err != nil {
				return err
			}
			if len(ts) != 1 {
				return usageErrorf("scale takes exactly one object")
			}
			t := ts[0]
			if !hasSubresource(t.info, "scale") {
				return fmt.Errorf("no scale subresource for %s", t.info.Resource)
			}
			cli, err := f.Client()
			if err != nil {
				return err
			}
			d := resourceClient(cli, t.info, f.Namespace())
			patch, _ := json.Marshal(map[string]any{"spec": map[string]any{"replicas": replicas}})
			if _, err := d.Patch(c.Context(), t.name, client.MergePatchType, patch, client.PatchOptions{FieldManager: "kubectl-scale"}, "scale"); err != nil {
				return err
			}
			fmt.Fprintf(f.streams.Out, "%s scaled\n", objectName(t.info, t.name))
			if !wait {
				return nil
			}
			return waitForReady(c.Context(), f, d, t.name, replicas)
		},
	}
	c.Flags().Int32Var(&replicas, "replicas", 0, "the new desired number of replicas")
	c.Flags().BoolVar(&wait, "wait", false, "wait, with a live progress line, until that many replicas are ready")
	return c
}

func hasSubresource(info *api.ResourceInfo, sub string) bool {
	for _, s := range info.Subresources {
		if s == sub {
			return true
		}
	}
	return false
}

// waitForReady rewrites one progress line ("3/5 ready") as the scale
// subresource's status changes, until readyReplicas (reported by the
// controller for the current generation) reaches want.
func waitForReady(ctx context.Context, f *factory, d *client.DynamicResource, name string, want int32) error {
	last := ""
	for {
		obj, err := d.Get(ctx, name, client.GetOptions{})
		if err != nil {
			return err
		}
		rs, ok := obj.(*api.ReplicaSet)
		if !ok {
			return fmt.Errorf("--wait knows only replicasets")
		}
		line := fmt.Sprintf("%d/%d ready", rs.Status.ReadyReplicas, want)
		if line != last {
			fmt.Fprintf(f.streams.Out, "\r%s", line)
			last = line
		}
		if rs.Status.ReadyReplicas == want && rs.Status.Replicas == want && rs.Status.ObservedGeneration >= rs.Generation {
			fmt.Fprintln(f.streams.Out)
			return nil
		}
		if err := waitForChange(ctx, d, name, rs.ResourceVersion); err != nil {
			return err
		}
	}
}

// waitForChange blocks until the object changes after version rv.
func waitForChange(ctx context.Context, d *client.DynamicResource, name, rv string) error {
	w, err := d.Watch(ctx, client.ListOptions{FieldSelector: nameSelector(name), ResourceVersion: rv})
	if err != nil {
		return err
	}
	defer w.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-w.ResultChan():
		// Any event (or the stream's end) means: read again.
		return nil
	}
}
