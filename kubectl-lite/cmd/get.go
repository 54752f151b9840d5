package cmd

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

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

// newEventsCommand is `kubectl events`: `get events`, oldest first.
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

type kindTable struct {
	*client.Table
	info *api.ResourceInfo
}

// run gets the named objects or, for a TYPE alone, lists them, then watches
// with -w. Every format reads a server-rendered Table, whose rows carry the
// whole objects for -o yaml or json and to sort events (includeObject=Object).
// A missing named object is reported and the rest still printed, as kubectl does.
func (o *getOptions) run(ctx context.Context, f *factory, args []string) error {
	_, ts, err := f.resolve(args, true)
	switch {
	case err != nil:
		return err
	case !slices.Contains([]string{"", "wide", "yaml", "json", "name"}, o.output):
		return usageErrorf("unable to match a printer suitable for the output format %q, allowed formats are: json,name,wide,yaml", o.output)
	case o.watch && !o.table():
		return usageErrorf("-w prints table rows: it does not go with -o %s", o.output)
	}
	list := ts[0].name == ""
	if list && o.allNamespaces {
		ts[0].d = ts[0].d.Namespace(api.NamespaceAll)
	}
	include := "" // the rows' objects: metadata only, unless they are printed or sorted
	if o.objects() || o.byEventTime {
		include = "Object"
	}
	opts := client.ListOptions{LabelSelector: o.selector}
	var tables []kindTable
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
		opts.ResourceVersion = tbl.Metadata.ResourceVersion
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
	if perr := o.print(f.streams.Out, tables, list, !list && len(ts) == 1); perr != nil || err != nil {
		return cmp.Or(perr, err)
	}
	switch {
	case list && len(tables) == 0 && !o.objects() && !o.watch:
		msg := "No resources found"
		if ts[0].info.Namespaced && !o.allNamespaces {
			msg += " in " + f.namespace + " namespace."
		}
		fmt.Fprintln(f.streams.ErrOut, msg)
	case o.watch:
		last := ts[len(ts)-1] // a listing has one target
		if !list {
			opts = client.ListOptions{FieldSelector: "metadata.name=" + last.name, ResourceVersion: opts.ResourceVersion}
		}
		return o.watchRows(ctx, f.streams.Out, last.d, opts, list && len(tables) == 0)
	}
	return nil
}

// table and objects tell the formats apart: "" and wide lay out the
// server's columns (cli-runtime's printers/tableprinter.go), yaml and json
// print the objects the rows carry, and name prints the rows' names.
func (o *getOptions) table() bool   { return o.output == "" || o.output == "wide" }
func (o *getOptions) objects() bool { return o.output == "yaml" || o.output == "json" }

// print writes tables in o's format. With yaml or json a listing prints
// inside a List, even an empty one, and single (the user named one object)
// prints bare.
func (o *getOptions) print(out io.Writer, tables []kindTable, list, single bool) error {
	var objs []api.Object
	for _, t := range tables {
		if o.table() {
			if err := o.printTable(out, t.Table, t.info.Namespaced, true); err != nil {
				return err
			}
			continue
		}
		for _, row := range t.Rows {
			obj := t.info.New() // from its metadata alone with -o name
			if err := json.Unmarshal(row.Object, obj); err != nil {
				return fmt.Errorf("table row: %w", err)
			}
			if o.output == "name" {
				fmt.Fprintln(out, objectName(t.info, obj.GetObjectMeta().Name))
			}
			obj.GetObjectMeta().ManagedFields = nil // kubectl hides them unless --show-managed-fields
			objs = append(objs, obj)
		}
	}
	if !o.objects() || (len(objs) == 0 && !list) {
		return nil
	}
	var v any = map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": objs}
	if single && len(objs) == 1 {
		v = objs[0]
	}
	data, _ := json.MarshalIndent(v, "", "    ") // decoded from JSON: they encode
	if data = append(data, '\n'); o.output == "yaml" {
		data, _ = yaml.JSONToYAML(data) // JSON is YAML
	}
	_, err := out.Write(data)
	return err
}

// printTable lays out t's rows: priority-0 columns (all with -o wide), a
// NAMESPACE column first with -A, LABELS last with --show-labels. header is
// false for the rows that follow a watch's first batch.
func (o *getOptions) printTable(out io.Writer, t *client.Table, namespaced, header bool) error {
	withNS := o.allNamespaces && namespaced
	tw := tabwriter.NewWriter(out, 6, 4, 3, ' ', 0) // kubectl's: columns padded by three spaces
	line := func(namespace, labels string, cells []string) {
		if withNS {
			cells = append([]string{namespace}, cells...)
		}
		if o.showLabels {
			cells = append(cells, labels)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	var show []int
	var names []string
	for i, c := range t.ColumnDefinitions {
		if c.Priority == 0 || o.output == "wide" {
			show, names = append(show, i), append(names, strings.ToUpper(c.Name))
		}
	}
	if header {
		line("NAMESPACE", "LABELS", names)
	}
	for _, row := range t.Rows {
		meta, err := row.ObjectMeta()
		if err != nil && (withNS || o.showLabels) {
			return fmt.Errorf("table row without object metadata: %w", err)
		}
		var cells []string
		for _, i := range show {
			if i < len(row.Cells) {
				cells = append(cells, fmt.Sprint(row.Cells[i]))
			}
		}
		line(meta.Namespace, cmp.Or(api.SelectorFromSet(meta.Labels).String(), "<none>"), cells)
	}
	return tw.Flush()
}

// watchRows prints each watch event, a one-row Table, until ctx ends or the
// server closes the stream. kubectl re-lists and re-watches on expiry; we stop.
func (o *getOptions) watchRows(ctx context.Context, out io.Writer, d *client.DynamicResource, opts client.ListOptions, header bool) error {
	events, err := d.WatchTable(ctx, opts)
	if err != nil {
		return err
	}
	for ev := range events {
		if ev.Err != nil {
			return ev.Err
		}
		if err := o.printTable(out, ev.Table, d.Info().Namespaced, header); err != nil { // no BOOKMARKs: not asked for
			return err
		}
		header = false
	}
	return nil
}

// sortRowsByEventTime needs the rows' whole objects (includeObject=Object).
func sortRowsByEventTime(rows []client.TableRow) error {
	at := map[string]time.Time{} // by the row's object, unique by its UID
	for _, r := range rows {
		var e api.Event
		if err := json.Unmarshal(r.Object, &e); err != nil {
			return fmt.Errorf("event row: %w", err)
		}
		at[string(r.Object)] = eventTime(&e)
	}
	slices.SortStableFunc(rows, func(a, b client.TableRow) int { return at[string(a.Object)].Compare(at[string(b.Object)]) })
	return nil
}
