package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/client"
)

// printer writes what get and events read in one of kubectl's -o formats.
// Tables ("" and wide) are the server's: kubectl-lite asks for a
// meta.k8s.io Table, as kubectl does, and only lays its rows out
// (cli-runtime's printers/tableprinter.go); yaml, json and name print
// the objects themselves.
type printer struct {
	out           io.Writer
	format        string // "", "wide", "yaml", "json" or "name"
	allNamespaces bool
	showLabels    bool
}

func newPrinter(out io.Writer, format string, allNamespaces, showLabels bool) (*printer, error) {
	switch format {
	case "", "wide", "yaml", "json", "name":
		return &printer{out: out, format: format, allNamespaces: allNamespaces, showLabels: showLabels}, nil
	}
	return nil, usageErrorf("unable to match a printer suitable for the output format %q, allowed formats are: json,name,wide,yaml", format)
}

// table reports whether the format is one of the server's Tables.
func (p *printer) table() bool { return p.format == "" || p.format == "wide" }

// printTable lays out t's rows: priority-0 columns (all with -o wide), a
// NAMESPACE column first with -A, LABELS last with --show-labels. header is
// false for the rows that follow a watch's first batch.
func (p *printer) printTable(t *client.Table, namespaced, header bool) error {
	withNS := p.allNamespaces && namespaced
	tw := tabwriter.NewWriter(p.out, 6, 4, 3, ' ', 0) // kubectl's: columns padded by three spaces
	line := func(namespace, labels string, cells []string) {
		if withNS {
			cells = append([]string{namespace}, cells...)
		}
		if p.showLabels {
			cells = append(cells, labels)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	var show []int
	var names []string
	for i, c := range t.ColumnDefinitions {
		if c.Priority == 0 || p.format == "wide" {
			show, names = append(show, i), append(names, strings.ToUpper(c.Name))
		}
	}
	if header {
		line("NAMESPACE", "LABELS", names)
	}
	for _, row := range t.Rows {
		meta, err := row.ObjectMeta()
		if err != nil && (withNS || p.showLabels) {
			return fmt.Errorf("table row without object metadata: %w", err)
		}
		var cells []string
		for _, i := range show {
			if i < len(row.Cells) {
				cells = append(cells, fmt.Sprint(row.Cells[i]))
			}
		}
		line(meta.Namespace, labelsString(meta.Labels), cells)
	}
	return tw.Flush()
}

// printObjects writes objs as names, or as yaml or json. single says the
// user named one object, so it prints bare rather than inside a List.
func (p *printer) printObjects(objs []api.Object, single bool) error {
	if p.format == "name" {
		for _, o := range objs {
			oi, _ := api.Builtin().ForObject(o)
			fmt.Fprintln(p.out, objectName(oi, o.GetObjectMeta().Name))
		}
		return nil
	}
	for _, o := range objs {
		if err := api.Builtin().SetTypeMeta(o); err != nil {
			return err
		}
		// kubectl hides managedFields unless --show-managed-fields; the
		// objects are this command's own, so clearing is safe.
		o.GetObjectMeta().ManagedFields = nil
	}
	var v any = map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": objs}
	if single && len(objs) == 1 {
		v = objs[0]
	}
	data, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		return err
	}
	if data = append(data, '\n'); p.format == "yaml" {
		data, err = yaml.JSONToYAML(data)
	}
	if err == nil {
		_, err = p.out.Write(data)
	}
	return err
}

// labelsString is "a=1,b=2" sorted by key, or "<none>".
func labelsString(m map[string]string) string {
	var pairs []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		pairs = append(pairs, k+"="+m[k])
	}
	if len(pairs) == 0 {
		return "<none>"
	}
	return strings.Join(pairs, ",")
}
