package controllers

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
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
	"kubeloop/informers"
	"kubeloop/workqueue"
)

// Runner is a started controller.
type Runner interface {
	Run(ctx context.Context, workers int)
}

// Context is what every controller's constructor may use.
type Context struct {
	Client    *client.Client
	Informers *informers.SharedInformerFactory
	Recorder  record.EventRecorder
	// Metrics feeds the workqueues' metrics into the manager's /metrics.
	Metrics workqueue.MetricsProvider
	// ComponentConfig holds the controllers' own flags.
	ComponentConfig ComponentConfig
}

// ComponentConfig is the configuration of the controllers themselves, the
// flags kube-controller-manager keeps in its KubeControllerManagerConfiguration
// (Generic.MinResyncPeriod, PodGCController.TerminatedPodGCThreshold, ...).
type ComponentConfig struct {
	// MinResyncPeriod (--min-resync-period): the shared informers resync
	// after a random period between this and twice this; zero turns
	// resyncs off.
	MinResyncPeriod time.Duration
	// LabelerNamespaces (--labeler-namespaces): the namespaces whose
	// ConfigMaps the labeler manages; empty means all of them.
	LabelerNamespaces []string
	// TerminatedPodGCThreshold (--terminated-pod-gc-threshold): how many
	// terminated pods may exist before pod GC deletes the oldest; zero or
	// less turns that part of pod GC off.
	TerminatedPodGCThreshold int
	// RootCA (--root-ca-file's contents) is the CA bundle the
	// root-ca-cert-publisher puts in every namespace; empty means the CA
	// the controller manager's own client trusts, as in Kubernetes.
	RootCA []byte
}

// Kubernetes' defaults for the component config.
const (
	DefaultMinResyncPeriod          = 12 * time.Hour
	DefaultTerminatedPodGCThreshold = 12500
)

// DefaultComponentConfig is the component config of a controller manager
// started without flags.
func DefaultComponentConfig() ComponentConfig {
	return ComponentConfig{
		MinResyncPeriod:          DefaultMinResyncPeriod,
		TerminatedPodGCThreshold: DefaultTerminatedPodGCThreshold,
	}
}

// ResyncPeriod is the resync period of one informer factory: a random
// duration between min and twice min, so that the informers of many
// controller managers (or of one restarted often) do not all resync at the
// same moment. Kubernetes: cmd/kube-controller-manager/app/
// controllermanager.go, ResyncPeriod.
func ResyncPeriod(minResync time.Duration) time.Duration {
	factor := rand.Float64() + 1
	return time.Duration(float64(minResync) * factor)
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
	// ComponentConfig configures the controllers; nil means
	// DefaultComponentConfig().
	ComponentConfig *ComponentConfig

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

	// UseServiceAccountCredentials runs each controller with the token of
	// its own ServiceAccount in kube-system (kube-controller-manager's
	// --use-service-account-credentials), so that it holds only its
	// system:controller:<name> role. The shared informers still read with
	// Config, the controller manager's own identity, as in Kubernetes.
	UseServiceAccountCredentials bool
	// SharedObjects, when set, lets the manager's pod cache share each pod
	// version with the other components of the process
	// (informers/shared_objects.go; cluster/full sets it).
	SharedObjects *informers.SharedObjects
	// ServiceAccounts maps controller names to their accounts; nil means
	// ServiceAccountNames().
	ServiceAccounts map[string]string
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
	if opts.ServiceAccounts == nil {
		opts.ServiceAccounts = ServiceAccountNames()
	}
	if opts.ComponentConfig == nil {
		cfg := DefaultComponentConfig()
		opts.ComponentConfig = &cfg
	}
	if opts.ComponentConfig.MinResyncPeriod < 0 {
		return nil, fmt.Errorf("controller-manager: --min-resync-period must not be negative")
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

// Enabled resolves a --controllers list against the known controllers, as
// kube-controller-manager does: the first entry naming a controller ("name"
// or "-name") decides it, whatever the order; otherwise "*" turns it on,
// unless it is disabled by default.
// Unknown names are an error, so a typo does not silently run nothing.
func Enabled(selection []string, known map[string]InitFunc) ([]string, error) {
	decided := map[string]bool{}
	star := false
	for _, s := range selection {
		s = strings.TrimSpace(s)
		name, on := strings.TrimPrefix(s, "-"), !strings.HasPrefix(s, "-")
		switch {
		case s == "":
			continue
		case s == "*":
			star = true
			continue
		case known[name] == nil:
			return nil, fmt.Errorf("unknown controller %q", name)
		}
		if _, seen := decided[name]; !seen {
			decided[name] = on
		}
	}
	var out []string
	for name := range known {
		on, seen := decided[name]
		if (seen && on) || (!seen && star && !disabledByDefault(name)) {
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
// holding the lease. It returns once every controller has stopped (and, with
// leader election, the lease has been released).
//
// kube-controller-manager exits the process when it loses the lease; a
// manager here shares its process with the rest of the cluster, so it stops
// its controllers and competes again instead.
func (m *Manager) Run(ctx context.Context) error {
	if !m.opts.LeaderElect {
		return m.runControllers(ctx)
	}
	c, err := client.NewForConfig(m.opts.Config.ForComponent("controller-manager"))
	if err != nil {
		return err
	}
	for {
		err := m.lead(ctx, c)
		if err != nil || ctx.Err() != nil {
			return err
		}
		m.log.Info("lost the lease; competing again")
	}
}

// lead runs one election: it returns when leadership is lost or ctx ends,
// or with the error that stopped the controllers from starting.
func (m *Manager) lead(ctx context.Context, c *client.Client) error {
	electCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var runErr error
	le, err := leaderelection.New(leaderelection.Config{
		Client: c, Namespace: m.opts.LeaseNamespace, Name: m.opts.LeaseName, Identity: m.opts.Identity,
		LeaseDuration: m.opts.LeaseDuration, RenewDeadline: m.opts.RenewDeadline, RetryPeriod: m.opts.RetryPeriod,
		// Safe because Run returns only after OnStartedLeading has, so
		// our controllers are stopped before a successor starts its own.
		ReleaseOnCancel: true,
		Callbacks: leaderelection.Callbacks{
			OnStartedLeading: func(ctx context.Context) {
				if err := m.runControllers(ctx); err != nil {
					// Holding the lease while running nothing would
					// keep every other manager idle too.
					runErr = err
					cancel()
				}
			},
			OnStoppedLeading: func() { m.log.Info("stopped leading", "identity", m.opts.Identity) },
			OnNewLeader:      func(id string) { m.log.Info("leader is", "identity", id) },
		},
	})
	if err != nil {
		return fmt.Errorf("controller-manager: %w", err)
	}
	le.Run(electCtx)
	return runErr
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
	resync := ResyncPeriod(m.opts.ComponentConfig.MinResyncPeriod)
	m.log.Info("informers' resync period", "period", resync)
	// Kubernetes' controller manager trims managedFields from its caches
	// (SharedObjects.Transform does, shared or not).
	factory := informers.NewClientInformerFactoryWithOptions(c,
		informer.Options{ResyncPeriod: resync, Transform: m.opts.SharedObjects.Transform}, nil)
	var runners []Runner
	var recorders []*record.Recorder
	for _, name := range names {
		cl, err := m.controllerClient(ctx, c, name)
		if err != nil {
			return fmt.Errorf("controller %s: %w", name, err)
		}
		// Each controller reports Events under its own name, as in
		// Kubernetes (`kubectl describe rs` says "From replicaset-controller").
		recorder := record.NewRecorder(cl, name+"-controller", "")
		recorders = append(recorders, recorder)
		cc := Context{Client: cl, Informers: factory, Recorder: recorder, Metrics: m.metrics, ComponentConfig: *m.opts.ComponentConfig}
		if len(cc.ComponentConfig.RootCA) == 0 {
			cc.ComponentConfig.RootCA = m.clientCA()
		}
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
	for _, recorder := range recorders {
		wg.Add(1)
		go func() { defer wg.Done(); recorder.Run(ctx) }()
	}
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

// controllerClient is the client controller name writes with: the
// manager's own, or, with UseServiceAccountCredentials, one that
// authenticates as the controller's ServiceAccount.
func (m *Manager) controllerClient(ctx context.Context, root *client.Client, name string) (*client.Client, error) {
	if !m.opts.UseServiceAccountCredentials {
		return root, nil
	}
	account, ok := m.opts.ServiceAccounts[name]
	if !ok {
		return nil, fmt.Errorf("no service account for controller %q", name)
	}
	b := serviceAccountClients{root: root, base: m.opts.Config, now: time.Now}
	cfg, err := b.Config(ctx, account, "controller-manager/"+account)
	if err != nil {
		return nil, err
	}
	m.log.Info("controller uses its service account", "controller", name,
		"user", "system:serviceaccount:"+ServiceAccountNamespace+":"+account)
	return client.NewForConfig(cfg)
}

// clientCA is the CA the manager's client trusts (inline or from a file);
// nil for a plain-HTTP cluster.
func (m *Manager) clientCA() []byte {
	tls := m.opts.Config.TLS
	if len(tls.CAData) > 0 {
		return tls.CAData
	}
	if tls.CAFile != "" {
		if b, err := os.ReadFile(tls.CAFile); err == nil {
			return b
		}
	}
	return nil
}
