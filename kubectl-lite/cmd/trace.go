package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/spf13/cobra"

	"kubeloop/trace"
)

// newTraceCommand streams the spine of one object from inside the cluster:
// the apiserver's /debug/trace, fed by every component that runs in the
// apiserver's process (`kubeloop up`). Unlike watch-spine, which watches
// from outside, it shows the reflector, DeltaFIFO, informer and workqueue
// hops inside the controllers (docs/trace.md).
func newTraceCommand(f *factory) *cobra.Command {
	var timeout time.Duration
	c := &cobra.Command{
		Use:   "trace TYPE NAME",
		Short: "Stream the spine of one object as the components inside the cluster report it",
		Long: "trace streams, from the apiserver's /debug/trace, every hop of a change to the object and to\n" +
			"the objects it controls (a ReplicaSet's pods), numbered as the deep-dive's sequence diagram,\n" +
			"with component, resourceVersion and the milliseconds since the first line. Scale the object\n" +
			"in another terminal. It runs until interrupted or --timeout.",
		RunE: func(c *cobra.Command, args []string) error {
			ts, err := parseTargets(args, false)
			if err != nil {
				return err
			}
			if len(ts) != 1 {
				return usageErrorf("trace takes one object")
			}
			cli, err := f.Client()
			if err != nil {
				return err
			}
			ctx := c.Context()
			if timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, timeout)
				defer cancel()
			}
			ns := ""
			if ts[0].info.Namespaced {
				ns = f.Namespace()
			}
			q := url.Values{"kind": {ts[0].info.Kind}, "resource": {ts[0].info.Resource}, "namespace": {ns}, "name": {ts[0].name}}
			body, err := cli.Stream(ctx, "/debug/trace", q)
			if err != nil {
				return err
			}
			defer body.Close()
			fmt.Fprintln(f.streams.Out, trace.Header)
			var base time.Time
			sc := bufio.NewScanner(body)
			for sc.Scan() {
				var e trace.Event
				if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
					return fmt.Errorf("trace: %w", err)
				}
				if base.IsZero() {
					base = e.Time
				}
				fmt.Fprintln(f.streams.Out, trace.Line(e, base))
			}
			if ctx.Err() != nil {
				return nil // interrupted or timed out: the normal end
			}
			return sc.Err()
		},
	}
	c.Flags().DurationVar(&timeout, "timeout", 0, "stop after this long (0 = until interrupted)")
	return c
}
