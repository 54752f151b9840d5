package cmd

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/spf13/cobra"

	"kubeloop/api"
	"kubeloop/client"
)

// newEventsCommand is `kubectl events`: `get events` sorted oldest first,
// which is the order things happened in.
func newEventsCommand(f *factory) *cobra.Command {
	o := &getOptions{}
	c := &cobra.Command{
		Use:   "events [-w] [-n NS | -A]",
		Short: "List events, oldest first",
		Args:  exactArgs(0, "events takes no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			cli, err := f.Client()
			if err != nil {
				return err
			}
			ns := f.Namespace()
			if o.allNamespaces {
				ns = api.NamespaceAll
			}
			info, _ := api.ForType[*api.Event](api.Builtin())
			d := resourceClient(cli, info, ns)
			// Whole objects in the rows: they are sorted by the events' own
			// times, which no column carries exactly.
			t, err := d.ListTable(c.Context(), client.ListOptions{}, "Object")
			if err != nil {
				return err
			}
			if err := sortRowsByEventTime(t.Rows); err != nil {
				return err
			}
			p, _ := newPrinter(f.streams.Out, "", o.allNamespaces, false)
			if len(t.Rows) == 0 && !o.watch {
				noResources(f.streams.ErrOut, info, ns)
				return nil
			}
			if len(t.Rows) > 0 {
				if err := p.printTable(t, true, true); err != nil {
					return err
				}
			}
			if !o.watch {
				return nil
			}
			return watchRows(c.Context(), d, p, client.ListOptions{ResourceVersion: t.Metadata.ResourceVersion}, len(t.Rows) == 0)
		},
	}
	c.Flags().BoolVarP(&o.allNamespaces, "all-namespaces", "A", false, "events of every namespace")
	c.Flags().BoolVarP(&o.watch, "watch", "w", false, "after listing, print new events as they arrive")
	return c
}

func sortRowsByEventTime(rows []client.TableRow) error {
	times := make([]time.Time, len(rows))
	for i, r := range rows {
		var e api.Event
		if err := json.Unmarshal(r.Object, &e); err != nil {
			return fmt.Errorf("event row: %w", err)
		}
		times[i] = eventTime(&e)
	}
	idx := make([]int, len(rows))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return times[idx[a]].Before(times[idx[b]]) })
	sorted := make([]client.TableRow, len(rows))
	for i, j := range idx {
		sorted[i] = rows[j]
	}
	copy(rows, sorted)
	return nil
}
