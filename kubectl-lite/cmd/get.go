package cmd

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"kubeloop/api"
	"kubeloop/client"
)

// getOptions are the flags of get (and, partly, of events).
type getOptions struct {
	output        string
	selector      string
	allNamespaces bool
	watch         bool
	showLabels    bool
}

func newGetCommand(f *factory) *cobra.Command {
	o := &getOptions{}
	c := &cobra.Command{
		Use:   "get TYPE [NAME...] [-n NS | -A] [-l SELECTOR] [-o wide|yaml|json|name] [-w]",
		Short: "Display one or many resources",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("you must specify the type of resource to get")
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error { return o.run(c.Context(), f, args) },
	}
	c.Flags().StringVarP(&o.output, "output", "o", "", "output format: wide, yaml, json or name")
	c.Flags().StringVarP(&o.selector, "selector", "l", "", "label selector, e.g. app=web,tier!=db")
	c.Flags().BoolVarP(&o.allNamespaces, "all-namespaces", "A", false, "list across all namespaces")
	c.Flags().BoolVarP(&o.watch, "watch", "w", false, "after listing, watch for changes")
	c.Flags().BoolVar(&o.showLabels, "show-labels", false, "add a LABELS column")
	return c
}

func (o *getOptions) run(ctx context.Context, f *factory, args []string) error {
	targets, err := parseTargets(args, true)
	if err != nil {
		return err
	}
	cli, err := f.Client()
	if err != nil {
		return err
	}
	p, err := newPrinter(f.streams.Out, o.output, o.allNamespaces, o.showLabels)
	if err != nil {
		return err
	}
	info := targets[0].info
	ns := f.Namespace()
	if o.allNamespaces {
		ns = api.NamespaceAll
	}
	d := resourceClient(cli, info, ns)

	if targets[0].name != "" {
		return o.getNamed(ctx, f, p, cli, targets)
	}
	objs, rv, err := d.ListAll(ctx, client.ListOptions{LabelSelector: o.selector})
	if err != nil {
		return err
	}
	if len(objs) == 0 && p.format != "yaml" && p.format != "json" && !o.watch {
		noResources(f.streams.ErrOut, info, ns)
		return nil
	}
	if err := p.print(info, objs, false, true); err != nil {
		return err
	}
	if !o.watch {
		return nil
	}
	return watchRows(ctx, d, p, client.ListOptions{LabelSelector: o.selector, ResourceVersion: rv}, len(objs) == 0)
}

// getNamed reads each named object; a missing one is reported and the
// rest still printed, as kubectl does.
func (o *getOptions) getNamed(ctx context.Context, f *factory, p *printer, cli *client.Client, targets []target) error {
	var objs []api.Object
	var firstErr error
	for _, t := range targets {
		obj, err := resourceClient(cli, t.info, f.Namespace()).Get(ctx, t.name, client.GetOptions{})
		if err != nil {
			if firstErr != nil {
				fmt.Fprintln(f.streams.ErrOut, errorMessage(firstErr))
			}
			firstErr = err
			continue
		}
		objs = append(objs, obj)
	}
	if err := p.printMixed(objs, len(targets) == 1); err != nil {
		return err
	}
	if firstErr != nil || !o.watch {
		return firstErr
	}
	last := objs[len(objs)-1].GetObjectMeta()
	d := resourceClient(cli, targets[len(targets)-1].info, f.Namespace())
	return watchRows(ctx, d, p, client.ListOptions{FieldSelector: nameSelector(last.Name), ResourceVersion: last.ResourceVersion}, false)
}

// watchRows prints one row per watch event until ctx ends or the server
// closes the stream. kubectl re-lists and re-watches on expiry; we stop.
func watchRows(ctx context.Context, d *client.DynamicResource, p *printer, opts client.ListOptions, header bool) error {
	w, err := d.Watch(ctx, opts)
	if err != nil {
		return err
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.ResultChan():
			if !ok {
				return nil
			}
			switch ev.Type {
			case api.Error:
				if st, ok := ev.Object.(*api.Status); ok {
					return &api.StatusError{ErrStatus: *st}
				}
				return fmt.Errorf("watch error: %v", ev.Object)
			case api.Bookmark:
				continue
			}
			if err := p.print(d.Info(), []api.Object{ev.Object}, false, header); err != nil {
				return err
			}
			header = false
		}
	}
}

// noResources is kubectl's message for an empty list, on stderr.
func noResources(errOut io.Writer, info *api.ResourceInfo, ns string) {
	if info.Namespaced && ns != "" {
		fmt.Fprintf(errOut, "No resources found in %s namespace.\n", ns)
		return
	}
	fmt.Fprintln(errOut, "No resources found")
}
