package scheduler

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/google/uuid"

	"kubeloop/client"
	"kubeloop/client/leaderelection"
	"kubeloop/client/record"
	"kubeloop/informer"
	"kubeloop/informers"
)

// RunStandalone wires a scheduler the way its own process does — informers
// and an event recorder over the given client — and runs it until ctx ends.
// `kubeloop scheduler` and the in-process cluster both start it this way.
// Kubernetes: cmd/kube-scheduler/app/server.go, Setup and Run.
func RunStandalone(ctx context.Context, c *client.Client, opts Options) error {
	// Kubernetes' scheduler trims managedFields from its pod cache
	// (SharedObjects.Transform does, shared or not).
	factory := informers.NewClientInformerFactoryWithOptions(c, informer.Options{Transform: opts.SharedObjects.Transform}, nil)
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

// LeaderElectionConfig is kube-scheduler's --leader-elect-* flags: several
// schedulers may run, and only the holder of the Lease schedules.
type LeaderElectionConfig struct {
	// The Lease; defaults kube-system/kube-scheduler, as in Kubernetes.
	Namespace, Name string
	// Identity defaults to hostname_uuid.
	Identity string
	// Zero means client/leaderelection's defaults (15 s, 10 s, 2 s).
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	// OnStartedLeading and OnStoppedLeading, if set, are told of each
	// term (tests and logs).
	OnStartedLeading, OnStoppedLeading func()
}

// RunWithLeaderElection runs a scheduler, as RunStandalone does, only while
// holding the lease le names, until ctx ends. Each term starts from fresh
// informers and a fresh queue, so nothing a former term assumed survives
// into the next. A scheduler that loses the lease stops scheduling (its
// in-flight bindings finish first) and competes again; ending ctx
// releases the lease so a standby takes over at once.
//
// Kubernetes: cmd/kube-scheduler/app/server.go, Run, which starts the
// informers before the election so a standby's caches are warm, and exits
// the process when the lease is lost ("leaderelection lost"). We build the
// informers per term (the scheduler here may share its process with a
// whole cluster, so it cannot exit), which costs a standby one list when it
// takes over.
func RunWithLeaderElection(ctx context.Context, c *client.Client, opts Options, le LeaderElectionConfig) error {
	if le.Namespace == "" {
		le.Namespace = "kube-system"
	}
	if le.Name == "" {
		le.Name = "kube-scheduler"
	}
	if le.Identity == "" {
		host, _ := os.Hostname()
		le.Identity = host + "_" + uuid.NewString()
	}
	log := slog.Default().With("component", ComponentName, "identity", le.Identity)
	for ctx.Err() == nil {
		var runErr error
		termCtx, cancel := context.WithCancel(ctx)
		elector, err := leaderelection.New(leaderelection.Config{
			Client: c, Namespace: le.Namespace, Name: le.Name, Identity: le.Identity,
			LeaseDuration: le.LeaseDuration, RenewDeadline: le.RenewDeadline, RetryPeriod: le.RetryPeriod,
			// Safe: Run returns only after OnStartedLeading has, so this
			// scheduler has stopped before a successor can start.
			ReleaseOnCancel: true,
			Callbacks: leaderelection.Callbacks{
				OnStartedLeading: func(ctx context.Context) {
					log.Info("started leading")
					if le.OnStartedLeading != nil {
						le.OnStartedLeading()
					}
					if err := RunStandalone(ctx, c, opts); err != nil {
						// Holding the lease while scheduling nothing would
						// keep every standby idle too.
						runErr = err
						cancel()
					}
				},
				OnStoppedLeading: func() {
					if le.OnStoppedLeading != nil {
						le.OnStoppedLeading()
					}
				},
				OnNewLeader: func(id string) { log.Info("leader is", "leader", id) },
			},
		})
		if err != nil {
			cancel()
			return fmt.Errorf("scheduler: %w", err)
		}
		elector.Run(termCtx)
		cancel()
		if runErr != nil {
			return runErr
		}
		if ctx.Err() == nil {
			log.Info("lost the lease; competing again")
		}
	}
	return nil
}
