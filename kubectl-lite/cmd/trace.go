// Skip on a first reading: a debugging aid beside watch-spine (docs/trace.md).

package cmd

import (
	"context"
	"net/url"
	"time"

	"github.com/spf13/cobra"

	"kubeloop/trace"
)

// newTraceCommand streams the apiserver's /debug/trace for one object:
// the hops inside every component of the apiserver's process (`kubeloop
// up`), where watch-spine sees only what a client sees.
func newTraceCommand(f *factory) *cobra.Command {
	var timeout time.Duration
	c := &cobra.Command{
		Use:   "trace TYPE NAME",
		Short: "Stream the spine of one object as the components inside the cluster report it",
		Long: "trace prints every hop of a change to the object and to the objects it controls, numbered\n" +
			"as the deep-dive's sequence diagram. Scale the object in another terminal.",
		RunE: func(c *cobra.Command, args []string) error {
			cli, t, err := f.resolveOne(args, "trace")
			if err != nil {
				return err
			}
			ctx, cancel := withTimeout(c.Context(), timeout)
			defer cancel()
			q := url.Values{"kind": {t.info.Kind}, "resource": {t.info.Resource}, "name": {t.name}}
			if t.info.Namespaced {
				q.Set("namespace", f.namespace)
			}
			body, err := cli.Stream(ctx, "/debug/trace", q)
			if err != nil {
				return err
			}
			defer body.Close()
			if err := trace.Follow(body, f.streams.Out); err != nil && ctx.Err() == nil {
				return err
			}
			return nil // interrupted or timed out: the normal end
		},
	}
	c.Flags().DurationVar(&timeout, "timeout", 0, "stop after this long (0 = until interrupted)")
	return c
}

// withTimeout bounds ctx by timeout when it is set (--timeout).
func withTimeout(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout > 0 {
		return context.WithTimeout(ctx, timeout)
	}
	return context.WithCancel(ctx)
}
