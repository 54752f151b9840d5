package cmd

import (
	"cmp"
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"kubeloop/api"
	"kubeloop/client"
)

func newDeleteCommand(f *factory) *cobra.Command {
	var (
		files   []string
		cascade string
		wait    bool
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
			var ts []target
			var err error
			switch {
			case len(files) > 0 && len(args) > 0:
				return usageErrorf("cannot specify both -f and resource names")
			case len(files) > 0:
				ts, err = readManifests(f, files)
			default:
				_, ts, err = f.resolve(args, false)
			}
			if err != nil {
				return err
			}
			var deleted []target
			err = forEach(f, ts, func(t target) error {
				err := t.d.Delete(c.Context(), t.name, api.DeleteOptions{PropagationPolicy: &policy})
				if err == nil {
					fmt.Fprintf(f.streams.Out, "%s %q deleted\n", qualifiedKind(t.info), t.name)
					deleted = append(deleted, t)
				}
				return err
			})
			if wait {
				err = cmp.Or(forEach(f, deleted, func(t target) error {
					return waitForChange(c.Context(), t.d, t.name, func(obj api.Object) bool { return obj == nil })
				}), err)
			}
			return err
		},
	}
	c.Flags().StringSliceVarP(&files, "filename", "f", nil, "delete the objects in these files")
	c.Flags().StringVar(&cascade, "cascade", "background", "background, foreground or orphan: what happens to dependents")
	c.Flags().BoolVar(&wait, "wait", true, "wait until the objects are gone (finalizers done)")
	return c
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
			_, t, err := f.resolveOne(args, "scale")
			if err != nil {
				return err
			}
			// A kind without the scale subresource is the server's NotFound.
			patch := fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, replicas)
			if _, err := t.d.Patch(c.Context(), t.name, client.MergePatchType, patch, client.PatchOptions{FieldManager: "kubectl-scale"}, "scale"); err != nil {
				return err
			}
			fmt.Fprintf(f.streams.Out, "%s scaled\n", objectName(t.info, t.name))
			if !wait {
				return nil
			}
			// One progress line ("3/5 ready"), rewritten as the status changes,
			// until readyReplicas (for the current generation) reaches replicas.
			last, notRS := "", error(nil)
			err = waitForChange(c.Context(), t.d, t.name, func(obj api.Object) bool {
				rs, ok := obj.(*api.ReplicaSet)
				if !ok {
					notRS = fmt.Errorf("--wait knows only replicasets, and %s %q is none (or is gone)", t.info.Resource, t.name)
					return true
				}
				if line := fmt.Sprintf("%d/%d ready", rs.Status.ReadyReplicas, replicas); line != last {
					fmt.Fprintf(f.streams.Out, "\r%s", line)
					last = line
				}
				return rs.Status.ReadyReplicas == replicas && rs.Status.Replicas == replicas && rs.Status.ObservedGeneration >= rs.Generation
			})
			if err = cmp.Or(err, notRS); err == nil {
				fmt.Fprintln(f.streams.Out)
			}
			return err
		},
	}
	c.Flags().Int32Var(&replicas, "replicas", 0, "the new desired number of replicas")
	c.Flags().BoolVar(&wait, "wait", false, "wait, with a live progress line, until that many replicas are ready")
	return c
}

// waitForChange reads the object, calls done with it (nil once it is gone)
// and, until done says so, blocks for the next change, watching from the
// version it read so no event can slip past. delete --wait and scale --wait
// are built on it.
func waitForChange(ctx context.Context, d *client.DynamicResource, name string, done func(api.Object) bool) error {
	for {
		obj, err := d.Get(ctx, name, client.GetOptions{})
		if api.IsNotFound(err) {
			obj, err = nil, nil
		}
		if err != nil || done(obj) {
			return err
		}
		w, err := d.Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=" + name, ResourceVersion: obj.GetObjectMeta().ResourceVersion})
		if err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			w.Stop()
			return fmt.Errorf("stopped waiting for %s %q: %w", d.Info().Resource, name, ctx.Err())
		case <-w.ResultChan(): // any event, or the stream's end: read again
		}
		w.Stop()
	}
}
