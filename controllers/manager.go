package controllers

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"kubeloop/client"
	"kubeloop/client/leaderelection"
	"kubeloop/client/record"
	"kubeloop/informer"
	"kubeloop/workqueue"
)

// Runner is a started controller.
type Runner interface {
	Run(ctx context.Context, workers int)
}

// Context is what every controller's constructor may use.
type Context struct {
	Client    *client.Client
	Informers *informer.SharedInformerFactory
	Recorder  record.EventRecorder
	// Metrics feeds the workqueues' metrics into the manager's /metrics.
	Metrics workqueue.MetricsProvider
}

// InitFunc builds one controller.
type InitFunc func(cc Context) (Runner, error)

// ManagerOptions configure a Manager.
type ManagerOptions struct {
	Config *client.Config
	// Controllers selects what runs: "*" is every default controller,
	// "name" adds one, "-name" removes one ("*,-labeler").
	Controllers []string
	// Workers per controller (default 5, as kube-controller-manager's
	// --concurrent-replicaset-syncs).
	Workers int
	// ResyncPeriod of the shared informers (0 = never).
	ResyncPeriod time.Duration

	LeaderElect    bool
	LeaseNamespace string // default kube-system
	LeaseName      string // default kube-controller-manager
	Identity       string // default hostname_uuid
	LeaseDuration  time.Duration
	RenewDeadline  time.Duration
	RetryPeriod    time.Duration

	// Known overrides the table of controllers (tests); nil means
	// KnownControllers().
	Known map[string]InitFunc
}

// Manager runs controllers.
type Manager struct {
	opts     ManagerOptions
	log      *slog.Logger
	registry *prometheus.Registry
	metrics  workqueue.MetricsProvider

	mu      sync.Mutex
	leading bool
}

// NewManager checks the options.
func NewManager(opts ManagerOptions) (*Manager, error) {
	if opts.Config == nil {
		return nil, fmt.Errorf("controller-manager: a client config is required")
	}
	if opts.Workers <= 0 {
		opts.Workers = 5
	}
	if len(opts.Controllers) == 0 {
		opts.Controllers = []string{"*"}
	}
	if opts.LeaseNamespace == "" {
		opts.LeaseNamespace = "kube-system"
	}
	if opts.LeaseName == "" {
		opts.LeaseName = "kube-controller-manager"
	}
	if opts.Identity == "" {
		host, _ := os.Hostname()
		opts.Identity = host + "_" + uuid.NewString()
	}
	if opts.Known == nil {
		opts.Known = KnownControllers()
	}
	if _, err := Enabled(opts.Controllers, opts.Known); err != nil {
		return nil, err
	}
	reg := prometheus.NewRegistry()
	provider, err := workqueue.NewPrometheusMetricsProvider(reg)
	if err != nil {
		return nil, err
	}
	return &Manager{
		opts:     opts,
		log:      slog.Default().With("component", "controller-manager"),
		registry: reg,
		metrics:  provider,
	}, nil
}

// Enabled resolves a --controllers list against the known controllers.
func Enabled(selection []string, known map[string]InitFunc) ([]string, error) {
	on := map[string]bool{}
	for _, s := range selection {
		s = strings.TrimSpace(s)
		switch {
		case s == "*":
			for name := range known {
				if _, off := on[name]; !off {
					on[name] = true
				}
			}
		case strings.HasPrefix(s, "-"):
			name := s[1:]
			if _, ok := known[name]; !ok {
				return nil, fmt.Errorf("unknown controller %q", name)
			}
			on[name] = false
		default:
			if _, ok := known[s]; !ok {
				return nil, fmt.Errorf("unknown controller %q", s)
			}
			on[s] = true
		}
	}
	var out []string
	for name, enabled := range on {
		if enabled {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Handler serves /metrics (the workqueues' metrics) and /healthz.
func (m *Manager) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("ok"))
	})
	return mux
}

// Serve serves Handler on ln until ctx ends.
func (m *Manager) Serve(ctx context.Context, ln net.Listener) {
	srv := &http.Server{Handler: m.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	_ = srv.Serve(ln)
}

// IsLeading reports whether this manager is running its controllers.
func (m *Manager) IsLeading() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.leading
}

// Run runs the controllers until ctx ends; with LeaderElect, only while
// holding the lease.
func (m *Manager) Run(ctx context.Context) error {
	if !m.opts.LeaderElect {
		return m.runControllers(ctx)
	}
	c, err := client.NewForConfig(m.opts.Config.ForComponent("controller-manager"))
	if err != nil {
		return err
	}
	le, err := leaderelection.New(leaderelection.Config{
		Client: c, Namespace: m.opts.LeaseNamespace, Name: m.opts.LeaseName, Identity: m.opts.Identity,
		LeaseDuration: m.opts.LeaseDuration, RenewDeadline: m.opts.RenewDeadline, RetryPeriod: m.opts.RetryPeriod,
		ReleaseOnCancel: true,
		Callbacks: leaderelection.Callbacks{
			OnStartedLeading: func(ctx context.Context) {
				if err := m.runControllers(ctx); err != nil {
					m.log.Error("controllers stopped", "err", err)
				}
			},
			OnNewLeader: func(id string) { m.log.Info("leader is", "identity", id) },
		},
	})
	if err != nil {
		return err
	}
	le.Run(ctx)
	return nil
}

func (m *Manager) runControllers(ctx context.Context) error {
	names, err := Enabled(m.opts.Controllers, m.opts.Known)
	if err != nil {
		return err
	}
	c, err := client.NewForConfig(m.opts.Config.ForComponent("controller-manager"))
	if err != nil {
		return err
	}
	factory := informer.NewClientInformerFactory(c, m.opts.ResyncPeriod, nil)
	recorder := record.NewRecorder(c, "controller-manager", "")
	cc := Context{Client: c, Informers: factory, Recorder: recorder, Metrics: m.metrics}

	var runners []Runner
	for _, name := range names {
		r, err := m.opts.Known[name](cc)
		if err != nil {
			return fmt.Errorf("controller %s: %w", name, err)
		}
		runners = append(runners, r)
		m.log.Info("starting controller", "controller", name)
	}
	m.mu.Lock()
	m.leading = true
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		m.leading = false
		m.mu.Unlock()
	}()

	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); recorder.Run(ctx) }()
	factory.Start(ctx)
	for _, r := range runners {
		wg.Add(1)
		go func() { defer wg.Done(); r.Run(ctx, m.opts.Workers) }()
	}
	<-ctx.Done()
	wg.Wait()
	factory.Shutdown()
	return nil
}
