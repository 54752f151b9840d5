package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/full"
	"kubeloop/kubelet"
	"kubeloop/trace"
)

type traceFlags struct {
	mermaid string
	all     bool
	timeout time.Duration
}

// traceCommand is `make trace`: the deep-dive's "scale to 5" run once in
// this process, with every component reporting its hops (docs/trace.md).
func traceCommand() *cobra.Command {
	var f traceFlags
	cmd := &cobra.Command{
		Use:   "trace",
		Short: "Start a cluster in this process, scale a ReplicaSet from 3 to 5 and print the spine as it happened",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runTrace(cmd.Context(), cmd.OutOrStdout(), f)
		},
	}
	cmd.Flags().StringVar(&f.mermaid, "mermaid", filepath.Join(".kubeloop", "trace.mmd"), "also write the trace as a Mermaid sequenceDiagram here (empty: do not)")
	cmd.Flags().BoolVar(&f.all, "all", false, "also print the hops beside the spine (status writes of the ReplicaSet, a component seeing a change that is not its arrow)")
	cmd.Flags().DurationVar(&f.timeout, "timeout", 2*time.Minute, "give up after this long")
	return cmd
}

func runTrace(ctx context.Context, out io.Writer, f traceFlags) error {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	// The components' own logs would drown the trace.
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	fmt.Fprintln(out, "starting a cluster with 3 nodes in this process ...")
	c, err := full.Start(ctx, cluster.Options{}, full.Options{Nodes: 3, Kubelet: kubelet.Options{PLEGPeriod: 50 * time.Millisecond}})
	if err != nil {
		return err
	}
	defer c.Stop()
	fmt.Fprintln(out, "creating ReplicaSet default/web with 3 replicas and waiting for them ...")
	events, err := traceScaleToFive(ctx, c, "default", "web")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "scaled to 5 through the scale subresource; the spine, numbered as the deep-dive's sequence diagram:\n\n")
	shown := events
	if !f.all {
		shown = nil
		for _, e := range events {
			if e.Step != trace.Off {
				shown = append(shown, e)
			}
		}
	}
	if err := trace.Print(out, shown); err != nil {
		return err
	}
	fmt.Fprintf(out, "\n%d events (%d beside the spine%s)\n", len(events), len(events)-len(spineOnly(events)), map[bool]string{true: "", false: ", shown with --all"}[f.all])
	if f.mermaid == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(f.mermaid), 0o755); err != nil {
		return err
	}
	mf, err := os.Create(f.mermaid)
	if err != nil {
		return err
	}
	if err := trace.WriteMermaid(mf, shown); err != nil {
		mf.Close()
		return err
	}
	if err := mf.Close(); err != nil {
		return err
	}
	fmt.Fprintf(out, "Mermaid sequenceDiagram written to %s\n", f.mermaid)
	return nil
}

func spineOnly(events []trace.Event) []trace.Event {
	var out []trace.Event
	for _, e := range events {
		if e.Step != trace.Off {
			out = append(out, e)
		}
	}
	return out
}

// traceScaleToFive creates ReplicaSet ns/name with 3 running pods, then
// records the spine of scaling it to 5 through the scale subresource (as
// kubectl scale does), until the ReplicaSet controller has observed both new
// pods Running. The events are sorted and start at the scale's arrival.
func traceScaleToFive(ctx context.Context, c *cluster.Cluster, ns, name string) ([]trace.Event, error) {
	// A pod is admitted only once its namespace's default ServiceAccount
	// exists; a refused pod would put a retry into the trace.
	if err := c.WaitForDefaultServiceAccount(ctx, ns); err != nil {
		return nil, err
	}
	rsc := client.For[*api.ReplicaSet](c.Client).Namespace(ns)
	if _, err := rsc.Create(ctx, webReplicaSet(ns, name, 3), client.CreateOptions{}); err != nil {
		return nil, err
	}
	if err := waitFor(ctx, func() (bool, error) {
		rs, err := rsc.Get(ctx, name, client.GetOptions{})
		if err != nil {
			return false, err
		}
		return rs.Status.ObservedGeneration == rs.Generation && rs.Status.AvailableReplicas == 3, nil
	}); err != nil {
		return nil, fmt.Errorf("waiting for 3 available replicas: %w", err)
	}

	rec := trace.Record(trace.NewRelated("ReplicaSet", "replicasets", ns, name).Match)
	defer rec.Stop()
	// Available 3 is not the end of the work: the status write that said
	// so comes back as a watch event and is reconciled once more, and a
	// late pod status may follow. A reconcile still running when the scale
	// lands would read spec 5 without a workqueue get in the trace, so wait
	// until the ReplicaSet's part of the cluster has been quiet a while.
	start := time.Now()
	if err := waitFor(ctx, func() (bool, error) {
		last := start
		if evs := rec.Events(); len(evs) > 0 {
			last = evs[len(evs)-1].Time
		}
		return time.Since(last) > settled, nil
	}); err != nil {
		return nil, fmt.Errorf("waiting for the ReplicaSet to settle: %w", err)
	}
	err := client.RetryOnConflict(client.DefaultRetry, func() error {
		scale, err := rsc.GetScale(ctx, name)
		if err != nil {
			return err
		}
		scale.Spec.Replicas = 5
		_, err = rsc.UpdateScale(ctx, name, scale, client.UpdateOptions{})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("scale to 5: %w", err)
	}
	if err := waitFor(ctx, func() (bool, error) {
		running := map[string]bool{}
		for _, e := range rec.Events() {
			if e.Hop == trace.RunningObserved {
				running[e.Key] = true
			}
		}
		return len(running) >= 2, nil
	}); err != nil {
		return nil, fmt.Errorf("waiting for the controller to observe 2 new pods Running: %w", err)
	}
	events := rec.Events()
	trace.Sort(events)
	for i, e := range events {
		if e.Step == 1 {
			return events[i:], nil
		}
	}
	return nil, fmt.Errorf("the trace holds no scale request (%d events)", len(events))
}

func webReplicaSet(ns, name string, replicas int32) *api.ReplicaSet {
	labels := map[string]string{"app": name}
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.27"}}},
			},
		},
	}
}

// settled is how long nothing related to the ReplicaSet may happen before
// the scale is sent.
const settled = 300 * time.Millisecond

// waitFor polls cond every 20 ms until it holds, fails or ctx ends.
func waitFor(ctx context.Context, cond func() (bool, error)) error {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}
