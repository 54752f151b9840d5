package apiserver

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/apiextensions/crdserving"
	"kubeloop/apiserver/authentication/authenticator"
	"kubeloop/apiserver/authorization/authorizer"
	"kubeloop/apiserver/authorization/rbac"
	"kubeloop/apiserver/endpoints/metrics"
	"kubeloop/apiserver/registry/core/namespace"
	rbacregistry "kubeloop/apiserver/registry/rbac"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/store"
)

// DefaultListenAddr is where Run listens when given no address:
// Kubernetes' secure port, on loopback.
const DefaultListenAddr = "127.0.0.1:6443"

// Admission is the chain every write goes through: all mutating plugins,
// then all validating ones. admission.NewDefaultChain builds the standard one.
type Admission = admission.Interface

// Config is everything New needs. The command (`kubeloop apiserver`) fills
// it from flags; tests fill it directly.
type Config struct {
	// Etcd is the client every resource's storage uses. Either Etcd or
	// NewStorage is required.
	Etcd *clientv3.Client
	// NewStorage, if set, builds the storage of one resource instead of the
	// default (the etcd store behind a watch cache).
	NewStorage func(ctx context.Context, info *api.ResourceInfo) (store.Interface, error)
	// Registry lists the kinds served (default api.Builtin()).
	Registry *api.Registry
	// Admission defaults to admission.NewDefaultChain over the namespaces
	// storage.
	Admission Admission
	// DisableWatchCache serves every read straight from etcd.
	DisableWatchCache bool
	// DisableManagedFields stops recording managedFields (and so refuses
	// server-side apply with 415). Kubernetes cannot turn tracking off; it
	// is here to measure what tracking costs (BenchmarkCreateUpdateManagedFields).
	DisableManagedFields bool
	// WatchCache tunes the watch caches.
	WatchCache WatchCacheOptions
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Metrics receives the server's metrics (default: a registry the server
	// owns; /metrics serves whichever it is).
	Metrics *prometheus.Registry
	// ShutdownTimeout bounds the graceful shutdown of Serve (default 10 s).
	ShutdownTimeout time.Duration
	// CompactionInterval is how often etcd's history is compacted, keeping
	// the last CompactionKeepRevisions revisions (defaults 5 minutes, as
	// kube-apiserver's --etcd-compaction-interval, and 10000). Negative
	// turns compaction off (for tests that compact by hand).
	CompactionInterval      time.Duration
	CompactionKeepRevisions int64
	// AuthorizationModes are kube-apiserver's --authorization-mode, in
	// order: "Node", "RBAC", or "AlwaysAllow" (the default, as in
	// kube-apiserver). With RBAC the bootstrap policy is reconciled at start.
	AuthorizationModes []string
	// EnableAdmissionPlugins adds optional plugins to the default chain
	// (kube-apiserver's --enable-admission-plugins): "ServiceAccount",
	// "NodeRestriction". Ignored when Admission is set.
	EnableAdmissionPlugins []string

	// ServingCert makes Serve speak HTTPS with this certificate
	// (kube-apiserver's --tls-cert-file). Without it Serve speaks plain
	// HTTP, and only on a loopback address.
	ServingCert *tls.Certificate
	// Authentication says how requests prove who they are.
	Authentication AuthenticationOptions
	// MaxRequestsInFlight and MaxMutatingRequestsInFlight bound how many
	// reads and writes are served at once; beyond them a request gets 429
	// (kube-apiserver's flags of the same names). 0 means Kubernetes'
	// defaults, 400 and 200; negative means no limit.
	MaxRequestsInFlight         int
	MaxMutatingRequestsInFlight int
}

// Server is the kubeloop API server: one storage per resource, the REST
// storage (registry) over each, and the HTTP handler chain in front of them.
type Server struct {
	reg       *api.Registry
	log       *slog.Logger
	admission Admission
	metrics   *metrics.Metrics
	// storage is each resource's store.Interface: etcd behind its watch
	// cache. restStorage is the registry over it, by subresource ("" for
	// the resource itself).
	storage     map[*api.ResourceInfo]store.Interface
	restStorage map[*api.ResourceInfo]map[string]rest.Storage
	// namespaces is the namespace registry, which the default namespaces
	// are created through.
	namespaces *namespace.REST
	// readyChecks run for /readyz and WaitReady (etcd answers, caches synced).
	readyChecks []func(ctx context.Context) error
	handler     http.Handler
	// customResources is the table of served custom resources, which
	// crdController fills from the CRDs (nil when the registry has no
	// CustomResourceDefinitions).
	customResources *crdserving.Served
	crdController   *crdserving.Controller
	// authorizer decides every request (AuthorizationModes); ruleResolver
	// is RBAC's (nil without RBAC), which the access reviews and
	// escalation prevention read; escalation is shared with the RBAC
	// registry, which is built before the authorizer it needs.
	authorizer   authorizer.Authorizer
	ruleResolver *rbac.RuleResolver
	escalation   *rbacregistry.Escalation
	// authenticator is the authentication filter's (Config.Authentication);
	// servingCert is nil for plain HTTP.
	authenticator authenticator.Request
	servingCert   *tls.Certificate
	// The in-flight limits (Config.MaxRequestsInFlight, ...), defaulted.
	maxRequestsInFlight, maxMutatingRequestsInFlight int

	// ctx lives as long as the server; cancelling it ends watches and the
	// background compaction.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// forceLiveLookup holds namespaces this server marked Terminating in the
	// last minute (name → time.Time): until the watch cache has surely seen
	// that, NamespaceLifecycle reads them from etcd. Kubernetes' lifecycle
	// plugin keeps the same kind of list (forceLiveLookupCache).
	forceLiveLookup sync.Map
	closeOnce       sync.Once
	shutdownTimeout time.Duration
	// disableManagedFields: no field managers (Config.DisableManagedFields).
	disableManagedFields bool
}

// New builds a Server: one storage per kind, the admission chain, and the
// default namespaces. It returns once etcd has answered and the caches are
// ready to serve.
func New(cfg Config) (*Server, error) {
	if cfg.Registry == nil {
		cfg.Registry = api.Builtin()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Metrics == nil {
		cfg.Metrics = prometheus.NewRegistry()
	}
	if cfg.Etcd == nil && cfg.NewStorage == nil {
		return nil, errors.New("apiserver: Config needs Etcd or NewStorage")
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		reg:         cfg.Registry,
		log:         cfg.Logger.With("component", "apiserver"),
		storage:     map[*api.ResourceInfo]store.Interface{},
		restStorage: map[*api.ResourceInfo]map[string]rest.Storage{},
		ctx:         ctx,
		cancel:      cancel,
		// Kubernetes' --shutdown-delay is 0 and its request timeout 60 s;
		// 10 s is plenty for the short requests kubeloop serves.
		shutdownTimeout: 10 * time.Second,
		escalation:      &rbacregistry.Escalation{},

		disableManagedFields: cfg.DisableManagedFields,
	}
	if cfg.ShutdownTimeout > 0 {
		s.shutdownTimeout = cfg.ShutdownTimeout
	}
	m, err := metrics.New(cfg.Metrics)
	if err != nil {
		cancel()
		return nil, err
	}
	s.metrics = m
	if err := s.buildStorage(ctx, cfg); err != nil {
		cancel()
		return nil, err
	}
	s.servingCert = cfg.ServingCert
	s.maxRequestsInFlight = defaultLimit(cfg.MaxRequestsInFlight, 400)
	s.maxMutatingRequestsInFlight = defaultLimit(cfg.MaxMutatingRequestsInFlight, 200)
	if err := s.serviceAccountTokens(&cfg.Authentication); err != nil {
		cancel()
		return nil, err
	}
	if s.authenticator, err = buildAuthenticator(cfg.Authentication); err != nil {
		cancel()
		return nil, err
	}
	if s.authorizer, err = s.buildAuthorizer(ctx, cfg.AuthorizationModes); err != nil {
		cancel()
		return nil, err
	}
	s.admission = cfg.Admission
	if s.admission == nil {
		if s.admission, err = admission.NewChainWith(namespaceGetter{s}, serviceAccountGetter{s}, cfg.EnableAdmissionPlugins); err != nil {
			cancel()
			return nil, err
		}
	}
	if err := s.newCustomResources(cfg); err != nil {
		cancel()
		return nil, err
	}
	if s.handler, err = s.buildHandler(cfg.Metrics); err != nil {
		cancel()
		return nil, err
	}

	startCtx, done := context.WithTimeout(ctx, 30*time.Second)
	defer done()
	if err := s.WaitReady(startCtx); err != nil {
		s.Close()
		return nil, fmt.Errorf("apiserver: not ready: %w", err)
	}
	if err := s.ensureDefaultNamespaces(startCtx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.reconcileBootstrapPolicy(startCtx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.startCustomResources(startCtx); err != nil {
		s.Close()
		return nil, err
	}
	s.startCompaction(cfg)
	return s, nil
}

// startCompaction compacts etcd's history in the background, every
// CompactionInterval, keeping the last CompactionKeepRevisions revisions.
func (s *Server) startCompaction(cfg Config) {
	if cfg.Etcd == nil || cfg.CompactionInterval < 0 {
		return
	}
	interval, keep := cfg.CompactionInterval, cfg.CompactionKeepRevisions
	if interval == 0 {
		interval = 5 * time.Minute
	}
	if keep <= 0 {
		keep = 10000
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		store.RunCompactor(s.ctx, cfg.Etcd, interval, keep)
	}()
}

// Handler is the whole HTTP API; tests mount it on httptest.NewServer.
func (s *Server) Handler() http.Handler { return s.handler }

// Close stops the background work and ends every watch. It does not close
// the etcd client, which the caller owns.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.cancel()
		s.wg.Wait()
		if s.customResources != nil {
			s.customResources.Close()
		}
	})
}

// WaitReady blocks until every ready check passes or ctx ends.
func (s *Server) WaitReady(ctx context.Context) error {
	for {
		err := s.checkReady(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last check: %v)", ctx.Err(), err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (s *Server) checkReady(ctx context.Context) error {
	for _, check := range s.readyChecks {
		if err := check(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Run listens on addr (DefaultListenAddr if empty) and serves until ctx ends.
func (s *Server) Run(ctx context.Context, addr string) error {
	if addr == "" {
		addr = DefaultListenAddr
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("apiserver: listen %s: %w", addr, err)
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx ends, then shuts down gracefully: watches
// end (their streams close cleanly, so clients re-watch elsewhere), and
// in-flight requests get ShutdownTimeout to finish. With a ServingCert it
// speaks HTTPS (HTTP/2 included, as client-go prefers); without one it
// refuses any address but loopback.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 30 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return s.ctx },
	}
	if s.servingCert == nil && !isLoopback(ln.Addr()) {
		_ = ln.Close() // so clients waiting on it fail at once
		return fmt.Errorf("apiserver: refusing to serve plain HTTP on %s: only loopback addresses may go without TLS", ln.Addr())
	}
	scheme := "http"
	if s.servingCert != nil {
		scheme = "https"
		srv.TLSConfig = s.tlsConfig()
	}
	s.log.Info("serving", "addr", ln.Addr().String(), "scheme", scheme)
	errc := make(chan error, 1)
	go func() {
		if srv.TLSConfig != nil {
			errc <- srv.ServeTLS(ln, "", "")
			return
		}
		errc <- srv.Serve(ln)
	}()
	select {
	case err := <-errc:
		return fmt.Errorf("apiserver: serve: %w", err)
	case <-ctx.Done():
	}
	// Cancelling the server context ends every watch handler; Shutdown then
	// waits for the remaining short requests.
	s.Close()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("apiserver: shutdown: %w", err)
	}
	<-errc
	s.log.Info("stopped")
	return nil
}
