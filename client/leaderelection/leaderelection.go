package leaderelection

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/client"
)

// Callbacks are called as leadership changes.
type Callbacks struct {
	// OnStartedLeading runs in its own goroutine; its context ends when
	// leadership is lost.
	OnStartedLeading func(ctx context.Context)
	OnStoppedLeading func()
	// OnNewLeader is told every time the observed holder changes.
	OnNewLeader func(identity string)
}

// Config configures an elector.
type Config struct {
	Client    *client.Client
	Namespace string
	Name      string
	Identity  string

	LeaseDuration   time.Duration
	RenewDeadline   time.Duration
	RetryPeriod     time.Duration
	ReleaseOnCancel bool
	Callbacks       Callbacks
}

// Defaults of kube-controller-manager.
const (
	DefaultLeaseDuration = 15 * time.Second
	DefaultRenewDeadline = 10 * time.Second
	DefaultRetryPeriod   = 2 * time.Second
	jitterFactor         = 1.2
)

// LeaderElector runs one candidate.
type LeaderElector struct {
	cfg    Config
	leases *client.Resource[*api.Lease]
	log    *slog.Logger

	mu sync.Mutex
	// observed is the last lease we read or wrote, and observedTime when
	// (by our clock) its content last changed.
	observed     *api.Lease
	observedTime time.Time
	reportedID   string
}

// New checks the config and fills in defaults (a zero duration means the
// default). The rules are client-go's NewLeaderElector's: every duration
// positive, lease duration > renew deadline > 1.2 × retry period, and both
// callbacks present; we also insist on whole seconds of lease duration
// because the Lease stores it in seconds.
func New(cfg Config) (*LeaderElector, error) {
	if cfg.LeaseDuration == 0 {
		cfg.LeaseDuration = DefaultLeaseDuration
	}
	if cfg.RenewDeadline == 0 {
		cfg.RenewDeadline = DefaultRenewDeadline
	}
	if cfg.RetryPeriod == 0 {
		cfg.RetryPeriod = DefaultRetryPeriod
	}
	switch {
	case cfg.Client == nil:
		return nil, errors.New("leaderelection: a client is required")
	case cfg.Namespace == "" || cfg.Name == "":
		return nil, errors.New("leaderelection: the lease namespace and name are required")
	case cfg.Identity == "":
		return nil, errors.New("leaderelection: identity is required")
	case cfg.LeaseDuration < 0 || cfg.RenewDeadline < 0 || cfg.RetryPeriod < 0:
		return nil, errors.New("leaderelection: durations must be positive")
	case cfg.LeaseDuration < time.Second:
		return nil, errors.New("leaderelection: lease duration must be at least one second")
	case cfg.LeaseDuration <= cfg.RenewDeadline:
		return nil, errors.New("leaderelection: lease duration must be greater than renew deadline")
	case float64(cfg.RenewDeadline) <= jitterFactor*float64(cfg.RetryPeriod):
		return nil, errors.New("leaderelection: renew deadline must be greater than 1.2 × retry period")
	case cfg.Callbacks.OnStartedLeading == nil:
		return nil, errors.New("leaderelection: OnStartedLeading is required")
	case cfg.Callbacks.OnStoppedLeading == nil:
		return nil, errors.New("leaderelection: OnStoppedLeading is required")
	}
	return &LeaderElector{
		cfg:    cfg,
		leases: client.For[*api.Lease](cfg.Client).Namespace(cfg.Namespace),
		log:    slog.Default().With("component", "leaderelection", "lease", cfg.Namespace+"/"+cfg.Name, "identity", cfg.Identity),
	}, nil
}

// Run competes for the lease and, once holding it, runs OnStartedLeading
// until the lease is lost or ctx ends. OnStoppedLeading is called when Run
// returns, whether or not it ever led (as in client-go).
//
// Unlike client-go, Run waits for OnStartedLeading to return before it
// releases the lease and returns: with ReleaseOnCancel a successor could
// otherwise start while our guarded work is still finishing. The price is
// that OnStartedLeading must honour its context.
func (le *LeaderElector) Run(ctx context.Context) {
	defer le.cfg.Callbacks.OnStoppedLeading()
	if !le.acquire(ctx) {
		return
	}
	leadCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		le.cfg.Callbacks.OnStartedLeading(leadCtx)
	}()
	le.renew(ctx)
	cancel()
	<-done
	if ctx.Err() != nil {
		le.release()
	}
}

// IsLeader reports whether this candidate held the lease at its last check.
func (le *LeaderElector) IsLeader() bool {
	le.mu.Lock()
	defer le.mu.Unlock()
	return le.observed != nil && le.observed.Spec.HolderIdentity != nil &&
		*le.observed.Spec.HolderIdentity == le.cfg.Identity
}

func (le *LeaderElector) acquire(ctx context.Context) bool {
	for {
		if le.tryAcquireOrRenew(ctx) {
			le.log.Info("acquired lease")
			return true
		}
		if !sleep(ctx, jittered(le.cfg.RetryPeriod)) {
			return false
		}
	}
}

// renew keeps the lease until a renewal has failed for RenewDeadline or ctx
// ends.
func (le *LeaderElector) renew(ctx context.Context) {
	for {
		deadline := time.Now().Add(le.cfg.RenewDeadline)
		renewed := false
		for time.Now().Before(deadline) {
			attemptCtx, cancel := context.WithDeadline(ctx, deadline)
			ok := le.tryAcquireOrRenew(attemptCtx)
			cancel()
			if ok {
				renewed = true
				break
			}
			if !sleep(ctx, le.cfg.RetryPeriod) {
				return
			}
		}
		if !renewed {
			le.log.Info("failed to renew lease; stepping down")
			return
		}
		if !sleep(ctx, le.cfg.RetryPeriod) {
			return
		}
	}
}

// tryAcquireOrRenew makes one attempt to become or stay the holder.
func (le *LeaderElector) tryAcquireOrRenew(ctx context.Context) bool {
	now := time.Now()
	durationSeconds := int32(le.cfg.LeaseDuration / time.Second)
	current, err := le.leases.Get(ctx, le.cfg.Name, client.GetOptions{})
	if api.IsNotFound(err) {
		lease := &api.Lease{ObjectMeta: api.ObjectMeta{Name: le.cfg.Name, Namespace: le.cfg.Namespace}}
		le.fillHolder(lease, now, durationSeconds, 0)
		created, err := le.leases.Create(ctx, lease, client.CreateOptions{})
		if err != nil {
			return false
		}
		le.observe(created, time.Now())
		return true
	}
	if err != nil {
		le.log.Debug("could not read lease", "err", err)
		return false
	}
	// Observed when the answer arrived (client-go's setObservedRecord reads
	// the clock then): now was taken before the GET, which may return a
	// renewal written after it, and the lease would look older than it is.
	le.observe(current, time.Now())

	holder := ""
	if current.Spec.HolderIdentity != nil {
		holder = *current.Spec.HolderIdentity
	}
	// Validity is judged with the holder's own lease duration (it may run
	// with other settings than ours), counted from when we saw the record
	// change.
	validFor := le.cfg.LeaseDuration
	if current.Spec.LeaseDurationSeconds != nil {
		validFor = time.Duration(*current.Spec.LeaseDurationSeconds) * time.Second
	}
	le.mu.Lock()
	expired := le.observedTime.Add(validFor).Before(now)
	le.mu.Unlock()
	if holder != "" && holder != le.cfg.Identity && !expired {
		return false
	}

	updated := current.DeepCopy()
	transitions := int32(0)
	if current.Spec.LeaseTransitions != nil {
		transitions = *current.Spec.LeaseTransitions
	}
	if holder != le.cfg.Identity {
		transitions++
		le.fillHolder(updated, now, durationSeconds, transitions)
	} else {
		renew := api.NewMicroTime(now)
		updated.Spec.RenewTime = &renew
		updated.Spec.LeaseDurationSeconds = &durationSeconds
	}
	written, err := le.leases.Update(ctx, updated, client.UpdateOptions{})
	if err != nil {
		le.log.Debug("could not update lease", "err", err)
		return false
	}
	le.observe(written, time.Now())
	return true
}

func (le *LeaderElector) fillHolder(l *api.Lease, now time.Time, durationSeconds, transitions int32) {
	id := le.cfg.Identity
	t := api.NewMicroTime(now)
	l.Spec.HolderIdentity = &id
	l.Spec.AcquireTime = &t
	l.Spec.RenewTime = &t
	l.Spec.LeaseDurationSeconds = &durationSeconds
	l.Spec.LeaseTransitions = &transitions
}

// observe records a lease read or written; the clock restarts only when its
// holder or renew time changed.
func (le *LeaderElector) observe(l *api.Lease, now time.Time) {
	le.mu.Lock()
	changed := le.observed == nil || !sameRecord(le.observed, l)
	if changed {
		le.observedTime = now
	}
	le.observed = l
	holder := ""
	if l.Spec.HolderIdentity != nil {
		holder = *l.Spec.HolderIdentity
	}
	report := holder != le.reportedID
	le.reportedID = holder
	le.mu.Unlock()
	if report && le.cfg.Callbacks.OnNewLeader != nil {
		go le.cfg.Callbacks.OnNewLeader(holder)
	}
}

func sameRecord(a, b *api.Lease) bool {
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	tm := func(p *api.MicroTime) string {
		if p == nil {
			return ""
		}
		return p.String()
	}
	return str(a.Spec.HolderIdentity) == str(b.Spec.HolderIdentity) && tm(a.Spec.RenewTime) == tm(b.Spec.RenewTime)
}

// release gives the lease up so a successor need not wait it out.
func (le *LeaderElector) release() {
	if !le.cfg.ReleaseOnCancel || !le.IsLeader() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), le.cfg.RenewDeadline)
	defer cancel()
	le.mu.Lock()
	l := le.observed.DeepCopy()
	le.mu.Unlock()
	// A renewal cancelled mid-flight may still have landed, leaving our copy
	// one version behind: on Conflict, read the lease again and release it
	// if it is still ours.
	err := client.RetryOnConflict(client.DefaultRetry, func() error {
		if l.Spec.HolderIdentity == nil || *l.Spec.HolderIdentity != le.cfg.Identity {
			return nil
		}
		empty := ""
		one := int32(1)
		now := api.NewMicroTime(time.Now())
		l.Spec.HolderIdentity = &empty
		l.Spec.LeaseDurationSeconds = &one
		l.Spec.RenewTime = &now
		written, err := le.leases.Update(ctx, l, client.UpdateOptions{})
		if err == nil {
			le.observe(written, time.Now())
			return nil
		}
		if api.IsConflict(err) {
			if fresh, getErr := le.leases.Get(ctx, le.cfg.Name, client.GetOptions{}); getErr == nil {
				le.observe(fresh, time.Now())
				l = fresh
			}
		}
		return err
	})
	if err != nil {
		le.log.Info("could not release lease", "err", err)
		return
	}
	le.log.Info("released lease")
}

func jittered(d time.Duration) time.Duration {
	return d + time.Duration(rand.Float64()*(jitterFactor-1)*float64(d))
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
