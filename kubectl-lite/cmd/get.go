package cmd

import (
	"cmp"
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
		Args:  cobra.NoArgs,
		RunE:  func(c *cobra.Command, _ []string) error { return o.run(c.Context(), f, []string{"events"}) },
	}
	o.flags(c)
	return c
}

// run gets the named objects or, for a TYPE alone, lists them, then watches
// with -w. Every format reads a server-rendered Table: its rows are what
// the table formats lay out, and with -o yaml or json (or to sort events)
// the rows carry the whole objects (includeObject=Object). A missing named
// object is reported and the rest still printed, as kubectl does.
func (o *getOptions) run(ctx context.Context, f *factory, args []string) error {
	_, ts, err := f.resolve(args, true)
	if err != nil {
		return err
	}
	p, err := newPrinter(f.streams.Out, o.output, o.allNamespaces, o.showLabels)
	if err == nil && o.watch && !p.table() {
		err = usageErrorf("-w prints table rows: it does not go with -o %s", o.output)
	}
	if err != nil {
		return err
	}
	list, ns := ts[0].name == "", f.namespace
	if list && o.allNamespaces {
		ns, ts[0].d = api.NamespaceAll, ts[0].d.Namespace(api.NamespaceAll)
	}
	include := "" // the rows' objects: metadata only, unless they are printed or sorted
	if p.format == "yaml" || p.format == "json" || o.byEventTime {
		include = "Object"
	}
	opts := client.ListOptions{LabelSelector: o.selector}
	var tables []kindTable
	n := 0 // objects found
	err = forEach(f, ts, func(t target) error {
		var tbl *client.Table
		var err error
		if list {
			tbl, err = t.d.ListTable(ctx, opts, include)
		} else {
			tbl, err = t.d.GetTable(ctx, t.name, include)
		}
		if err != nil {
			return err
		}
		opts.ResourceVersion, n = tbl.Metadata.ResourceVersion, n+len(tbl.Rows)
		if k := len(tables) - 1; k >= 0 && tables[k].info == t.info { // one kind in a row prints as one Table
			tables[k].Rows = append(tables[k].Rows, tbl.Rows...)
		} else if len(tbl.Rows) > 0 {
			tables = append(tables, kindTable{tbl, t.info})
		}
		return nil
	})
	if len(tables) == 1 && o.byEventTime { // the events' own times, which no column carries exactly
		err = cmp.Or(sortRowsByEventTime(tables[0].Rows), err)
	}
	if perr := p.print(tables, list, !list && len(ts) == 1); perr != nil || err != nil {
		return cmp.Or(perr, err)
	}
	switch {
	case list && n == 0 && p.format != "yaml" && p.format != "json" && !o.watch:
		msg := "No resources found"
		if ts[0].info.Namespaced && ns != "" {
			msg += " in " + ns + " namespace."
		}
		fmt.Fprintln(f.streams.ErrOut, msg)
	case o.watch && list:
		return watchRows(ctx, ts[0].d, p, opts, n == 0)
	case o.watch:
		last := ts[len(ts)-1]
		return watchRows(ctx, last.d, p, client.ListOptions{FieldSelector: nameSelector(last.name), ResourceVersion: opts.ResourceVersion}, false)
	}
	return nil
}

// watchRows prints each watch event, a one-row Table, until ctx ends or the
// server closes the stream. kubectl re-lists and re-watches on expiry; we stop.
func watchRows(ctx context.Context, d *client.DynamicResource, p *printer, opts client.ListOptions, header bool) error {
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
