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
	opts := client.ListOptions{LabelSelector: o.selector}
	n, err := 0, error(nil)
	if p.table() {
		var t *client.Table
		if t, err = d.ListTable(ctx, opts, ""); err == nil {
			opts.ResourceVersion, n = t.Metadata.ResourceVersion, len(t.Rows)
			if n > 0 {
				err = p.printTable(t, info.Namespaced, true)
			}
		}
	} else {
		var objs []api.Object
		if objs, opts.ResourceVersion, err = d.ListAll(ctx, opts); err == nil {
			n = len(objs)
			if n > 0 || p.format != "name" {
				err = p.printObjects(objs, false)
			}
		}
	}
	if err != nil {
		return err
	}
	if n == 0 && p.format != "yaml" && p.format != "json" && !o.watch {
		noResources(f.streams.ErrOut, info, ns)
		return nil
	}
	if !o.watch {
		return nil
	}
	return watchRows(ctx, d, p, opts, n == 0)
}

// getNamed reads each named object; a missing one is reported and the rest
// still printed, as kubectl does. Tables of one kind in a row print as one.
func (o *getOptions) getNamed(ctx context.Context, f *factory, p *printer, cli *client.Client, targets []target) error {
	var objs []api.Object
	var tables []*client.Table
	var infos []*api.ResourceInfo
	var firstErr error
	lastRV := ""
	for _, t := range targets {
		d := resourceClient(cli, t.info, f.Namespace())
		var err error
		if p.table() {
			var tbl *client.Table
			if tbl, err = d.GetTable(ctx, t.name); err == nil {
				lastRV = tbl.Metadata.ResourceVersion
				if n := len(infos); n > 0 && infos[n-1] == t.info {
					tables[n-1].Rows = append(tables[n-1].Rows, tbl.Rows...)
				} else {
					tables, infos = append(tables, tbl), append(infos, t.info)
				}
			}
		} else {
			var obj api.Object
			if obj, err = d.Get(ctx, t.name, client.GetOptions{}); err == nil {
				objs, lastRV = append(objs, obj), obj.GetObjectMeta().ResourceVersion
			}
		}
		if err != nil {
			if firstErr != nil {
				fmt.Fprintln(f.streams.ErrOut, errorMessage(firstErr))
			}
			firstErr = err
		}
	}
	for i, t := range tables {
		if err := p.printTable(t, infos[i].Namespaced, true); err != nil {
			return err
		}
	}
	if len(objs) > 0 {
		if err := p.printObjects(objs, len(targets) == 1); err != nil {
			return err
		}
	}
	if firstErr != nil || !o.watch {
		return firstErr
	}
	last := targets[len(targets)-1]
	d := resourceClient(cli, last.info, f.Namespace())
	return watchRows(ctx, d, p, client.ListOptions{FieldSelector: nameSelector(last.name), ResourceVersion: lastRV}, false)
}

// watchRows prints each watch event (a one-row Table, or the object in
// yaml, json or name) until ctx ends or the server closes the stream.
// kubectl re-lists and re-watches on expiry; we stop.
func watchRows(ctx context.Context, d *client.DynamicResource, p *printer, opts client.ListOptions, header bool) error {
	if p.table() {
		events, err := d.WatchTable(ctx, opts)
		if err != nil {
			return err
		}
		for ev := range events {
			if ev.Err != nil {
				return ev.Err
			}
			if ev.Table != nil {
				if err := p.printTable(ev.Table, d.Info().Namespaced, header); err != nil {
					return err
				}
				header = false
			}
		}
		return nil
	}
	w, err := d.Watch(ctx, opts)
	if err != nil {
		return err
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		switch ev.Type {
		case api.Error:
			if st, ok := ev.Object.(*api.Status); ok {
				return &api.StatusError{ErrStatus: *st}
			}
			return fmt.Errorf("watch error: %v", ev.Object)
		case api.Bookmark:
			continue
		}
		if err := p.printObjects([]api.Object{ev.Object}, false); err != nil {
			return err
		}
	}
	return nil
}

// noResources is kubectl's message for an empty list, on stderr.
func noResources(errOut io.Writer, info *api.ResourceInfo, ns string) {
	if info.Namespaced && ns != "" {
		fmt.Fprintf(errOut, "No resources found in %s namespace.\n", ns)
		return
	}
	fmt.Fprintln(errOut, "No resources found")
}
