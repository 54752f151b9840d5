package cmd

import (
	"sort"

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
			objs, rv, err := d.ListAll(c.Context(), client.ListOptions{})
			if err != nil {
				return err
			}
			sort.SliceStable(objs, func(i, j int) bool {
				return eventTime(objs[i].(*api.Event)).Before(eventTime(objs[j].(*api.Event)))
			})
			p, _ := newPrinter(f.streams.Out, "", o.allNamespaces, false)
			if len(objs) == 0 && !o.watch {
				noResources(f.streams.ErrOut, info, ns)
				return nil
			}
			if err := p.print(info, objs, false, len(objs) > 0); err != nil {
				return err
			}
			if !o.watch {
				return nil
			}
			return watchRows(c.Context(), d, p, client.ListOptions{ResourceVersion: rv}, len(objs) == 0)
		},
	}
	c.Flags().BoolVarP(&o.allNamespaces, "all-namespaces", "A", false, "events of every namespace")
	c.Flags().BoolVarP(&o.watch, "watch", "w", false, "after listing, print new events as they arrive")
	return c
}
