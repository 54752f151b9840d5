package cmd

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/client"
)

// printer writes the Tables that get and events read in one of kubectl's
// -o formats: "" and wide lay out the server's columns (cli-runtime's
// printers/tableprinter.go), name prints the rows' names, and yaml and json
// print the objects the rows carry.
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

// table reports whether the format lays out the Table's columns.
func (p *printer) table() bool { return p.format == "" || p.format == "wide" }

// kindTable is a Table of objects of one kind.
type kindTable struct {
	*client.Table
	info *api.ResourceInfo
}

// print writes tables in p's format. With yaml or json a listing prints
// inside a List, even an empty one, and single (the user named one object)
// prints bare.
func (p *printer) print(tables []kindTable, list, single bool) error {
	var objs []api.Object
	for _, t := range tables {
		if p.table() {
			if err := p.printTable(t.Table, t.info.Namespaced, true); err != nil {
				return err
			}
			continue
		}
		for _, row := range t.Rows {
			obj := t.info.New() // from its metadata alone with -o name
			if err := json.Unmarshal(row.Object, obj); err != nil {
				return fmt.Errorf("table row: %w", err)
			}
			if p.format == "name" {
				fmt.Fprintln(p.out, objectName(t.info, obj.GetObjectMeta().Name))
			}
			obj.GetObjectMeta().ManagedFields = nil // kubectl hides them unless --show-managed-fields
			objs = append(objs, obj)
		}
	}
	if p.table() || p.format == "name" || (len(objs) == 0 && !list) {
		return nil
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
		line(meta.Namespace, cmp.Or(api.SelectorFromSet(meta.Labels).String(), "<none>"), cells)
	}
	return tw.Flush()
}
