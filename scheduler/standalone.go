package scheduler

import (
	"context"

	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/informer"
)

// RunStandalone wires a scheduler the way its own process does — informers
// and an event recorder over the given client — and runs it until ctx ends.
// `kubeloop scheduler` and the in-process cluster both start it this way.
// Kubernetes: cmd/kube-scheduler/app/server.go, Setup and Run.
func RunStandalone(ctx context.Context, c *client.Client, opts Options) error {
	factory := informer.NewClientInformerFactory(c, 0, nil)
	rec := record.NewRecorder(c, ComponentName, "")
	s, err := New(c, factory, rec, opts)
	if err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { defer close(done); rec.Run(ctx) }()
	factory.Start(ctx)
	s.Run(ctx)
	factory.Shutdown()
	<-done
	return nil
}
