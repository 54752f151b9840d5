package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/spf13/cobra"

	"kubeloop/api"
	"kubeloop/client"
)

// getOptions are the flags of get, and of events (get events, sorted).
type getOptions struct {
	output, selector        string
	allNamespaces, watch    bool
	showLabels, byEventTime bool
}

func (o *getOptions) flags(c *cobra.Command) {
	c.Flags().BoolVarP(&o.allNamespaces, "all-namespaces", "A", false, "list across all namespaces")
	c.Flags().BoolVarP(&o.watch, "watch", "w", false, "after listing, watch for changes")
}

func newGetCommand(f *factory) *cobra.Command {
	o := &getOptions{}
	c := &cobra.Command{
		Use:   "get TYPE [NAME...] [-n NS | -A] [-l SELECTOR] [-o wide|yaml|json|name] [-w]",
		Short: "Display one or many resources",
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("you must specify the type of resource to get")
			}
			return o.run(c.Context(), f, args)
		},
	}
	o.flags(c)
	c.Flags().StringVarP(&o.output, "output", "o", "", "output format: wide, yaml, json or name")
	c.Flags().StringVarP(&o.selector, "selector", "l", "", "label selector, e.g. app=web,tier!=db")
	c.Flags().BoolVar(&o.showLabels, "show-labels", false, "add a LABELS column")
	return c
}

// newEventsCommand is `kubectl events`: `get events` oldest first, the
// order things happened in.
func newEventsCommand(f *factory) *cobra.Command {
	o := &getOptions{byEventTime: true}
	c := &cobra.Command{
		Use:   "events [-w] [-n NS | -A]",
		Short: "List events, oldest first",
		Args:  exactArgs(0, "events takes no arguments"),
		RunE:  func(c *cobra.Command, _ []string) error { return o.run(c.Context(), f, []string{"events"}) },
	}
	o.flags(c)
	return c
}

func (o *getOptions) run(ctx context.Context, f *factory, args []string) error {
	_, ts, err := f.resolve(args, true)
	if err != nil {
		return err
	}
	p, err := newPrinter(f.streams.Out, o.output, o.allNamespaces, o.showLabels)
	if err != nil {
		return err
	}
	if ts[0].name != "" {
		return o.getNamed(ctx, f, p, ts)
	}
	info, ns := ts[0].info, f.Namespace()
	if o.allNamespaces {
		ns = api.NamespaceAll
	}
	d := ts[0].d.Namespace(ns)
	opts := client.ListOptions{LabelSelector: o.selector}
	n := 0
	if p.table() {
		include := ""
		if o.byEventTime {
			include = "Object" // sorted by the events' own times, which no column carries exactly
		}
		t, err := d.ListTable(ctx, opts, include)
		if err == nil && o.byEventTime {
			err = sortRowsByEventTime(t.Rows)
		}
		if err != nil {
			return err
		}
		if opts.ResourceVersion, n = t.Metadata.ResourceVersion, len(t.Rows); n > 0 {
			err = p.printTable(t, info.Namespaced, true)
		}
	} else {
		var objs []api.Object
		if objs, opts.ResourceVersion, err = d.ListAll(ctx, opts); err == nil && (len(objs) > 0 || p.format != "name") {
			n, err = len(objs), p.printObjects(objs, false)
		}
	}
	switch {
	case err != nil:
		return err
	case n == 0 && p.format != "yaml" && p.format != "json" && !o.watch:
		if info.Namespaced && ns != "" {
			fmt.Fprintf(f.streams.ErrOut, "No resources found in %s namespace.\n", ns)
		} else {
			fmt.Fprintln(f.streams.ErrOut, "No resources found")
		}
	case o.watch:
		return watchRows(ctx, d, p, opts, n == 0)
	}
	return nil
}

// getNamed reads each named object; a missing one is reported and the rest
// still printed, as kubectl does. Tables of one kind in a row print as one.
func (o *getOptions) getNamed(ctx context.Context, f *factory, p *printer, ts []target) error {
	var objs []api.Object
	var tables []*client.Table
	var kinds []*api.ResourceInfo
	var lastErr error
	rv := ""
	for _, t := range ts {
		var err error
		if p.table() {
			var tbl *client.Table
			if tbl, err = t.d.GetTable(ctx, t.name); err == nil {
				rv = tbl.Metadata.ResourceVersion
				if n := len(kinds); n > 0 && kinds[n-1] == t.info {
					tables[n-1].Rows = append(tables[n-1].Rows, tbl.Rows...)
				} else {
					tables, kinds = append(tables, tbl), append(kinds, t.info)
				}
			}
		} else {
			var obj api.Object
			if obj, err = t.d.Get(ctx, t.name, client.GetOptions{}); err == nil {
				objs, rv = append(objs, obj), obj.GetObjectMeta().ResourceVersion
			}
		}
		if err != nil {
			if lastErr != nil {
				fmt.Fprintln(f.streams.ErrOut, errorMessage(lastErr))
			}
			lastErr = err
		}
	}
	for i, t := range tables {
		if err := p.printTable(t, kinds[i].Namespaced, true); err != nil {
			return err
		}
	}
	if len(objs) > 0 {
		if err := p.printObjects(objs, len(ts) == 1); err != nil {
			return err
		}
	}
	if lastErr != nil || !o.watch {
		return lastErr
	}
	last := ts[len(ts)-1]
	return watchRows(ctx, last.d, p, client.ListOptions{FieldSelector: nameSelector(last.name), ResourceVersion: rv}, false)
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
		if st, ok := ev.Object.(*api.Status); ok && ev.Type == api.Error {
			return &api.StatusError{ErrStatus: *st}
		} else if ev.Type == api.Error {
			return fmt.Errorf("watch error: %v", ev.Object)
		}
		if ev.Type != api.Bookmark {
			if err := p.printObjects([]api.Object{ev.Object}, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// sortRowsByEventTime orders the rows of an events Table (with whole
// objects in them) by when each event last happened.
func sortRowsByEventTime(rows []client.TableRow) error {
	type timed struct {
		row client.TableRow
		at  time.Time
	}
	byTime := make([]timed, len(rows))
	for i, r := range rows {
		var e api.Event
		if err := json.Unmarshal(r.Object, &e); err != nil {
			return fmt.Errorf("event row: %w", err)
		}
		byTime[i] = timed{r, eventTime(&e)}
	}
	sort.SliceStable(byTime, func(a, b int) bool { return byTime[a].at.Before(byTime[b].at) })
	for i, t := range byTime {
		rows[i] = t.row
	}
	return nil
}
