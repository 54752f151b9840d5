package cluster

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/apiserver"
	"kubeloop/apiserver/authentication/authenticator"
	"kubeloop/apiserver/authentication/tokenfile"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/pki"
	"kubeloop/client"
	"kubeloop/store"
	"kubeloop/trace"
)

// Options choose what Start runs.
type Options struct {
	// DataDir holds etcd's data and the kubeconfig. Empty means a temporary
	// directory that Stop removes.
	DataDir string
	// Listen is the apiserver's address; empty means 127.0.0.1 on a free port.
	Listen string
	// EtcdEndpoints selects an external etcd; empty starts an embedded one.
	EtcdEndpoints []string
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Components to run next to the apiserver. See components.go.
	Components Components
	// AuthorizationModes and AdmissionPlugins are the apiserver's
	// (apiserver.Config.AuthorizationModes, EnableAdmissionPlugins). Nil
	// means kubeadm's choice: DefaultAuthorizationModes (Node,RBAC) and
	// DefaultAdmissionPlugins (ServiceAccount, NodeRestriction), the
	// former only if a component makes the default ServiceAccounts (see
	// admissionPlugins); []string{"AlwaysAllow"} lets anyone do anything,
	// an empty non-nil AdmissionPlugins enables none.
	AuthorizationModes []string
	AdmissionPlugins   []string
	// UseServiceAccountCredentials says the controller manager runs each
	// controller with its own ServiceAccount (kube-controller-manager's
	// --use-service-account-credentials). Without it (the default) Start
	// grants system:kube-controller-manager the controller roles; see
	// reconcileControllerManagerGrants.
	UseServiceAccountCredentials bool
	// InsecureHTTP serves plain HTTP instead of HTTPS, on a loopback
	// address only; the admin then authenticates with a bearer token made
	// up at start. For debugging with curl; nothing needs it.
	InsecureHTTP bool
	// TokenAuthFile is a static token CSV (kube-apiserver's
	// --token-auth-file).
	TokenAuthFile string
	// MaxRequestsInFlight and MaxMutatingRequestsInFlight are the
	// apiserver's in-flight limits (kube-apiserver's
	// --max-requests-inflight, --max-mutating-requests-inflight); zero
	// means Kubernetes' defaults, 400 and 200. Big clusters raise them:
	// Kubernetes' own 5000-node scale tests run with 1500 and 500.
	MaxRequestsInFlight, MaxMutatingRequestsInFlight int
}

// AdminUser is the name in the admin's client certificate; its group
// system:masters may do anything. kubeadm names its admin the same.
const AdminUser = "kubernetes-admin"

// Cluster is a running cluster.
type Cluster struct {
	// URL is the apiserver's base URL, e.g. https://127.0.0.1:41234.
	URL string
	// KubeconfigPath points at a kubeconfig for this cluster (context "kubeloop").
	KubeconfigPath string
	// Config is the admin's client config: it trusts the cluster's CA and
	// presents the admin's certificate (O=system:masters).
	Config *client.Config
	// Client is a ready admin client for tests.
	Client *client.Client
	// CA is the cluster's certificate authority (nil with InsecureHTTP);
	// ConfigFor issues client certificates from it.
	CA *pki.CA
	// Etcd is the etcd client (tests use it to compact, or to look under
	// the API); components never touch it.
	Etcd *clientv3.Client

	opts      Options
	log       *slog.Logger
	server    *apiserver.Server
	embedded  *store.Embedded
	ownsEtcd  bool
	tempDir   string
	cancel    context.CancelFunc
	wg        sync.WaitGroup
	stopOnce  sync.Once
	serveErr  chan error
	listener  net.Listener
	component map[string]context.CancelFunc
	mu        sync.Mutex
}

// Start brings the cluster up and returns when the apiserver is ready and
// the chosen components have been started.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	c := &Cluster{opts: opts, log: opts.Logger, component: map[string]context.CancelFunc{}}
	if c.log == nil {
		c.log = slog.Default()
	}
	if err := c.startEtcd(opts); err != nil {
		c.Stop()
		return nil, err
	}
	if err := c.startAPIServer(opts); err != nil {
		c.Stop()
		return nil, err
	}
	if err := c.startComponents(ctx, opts.Components); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

func (c *Cluster) dataDir() (string, error) {
	if c.opts.DataDir != "" {
		return c.opts.DataDir, os.MkdirAll(c.opts.DataDir, 0o700)
	}
	if c.tempDir == "" {
		d, err := os.MkdirTemp("", "kubeloop-cluster-")
		if err != nil {
			return "", err
		}
		c.tempDir = d
	}
	return c.tempDir, nil
}

func (c *Cluster) startEtcd(opts Options) error {
	if len(opts.EtcdEndpoints) > 0 {
		cli, err := store.NewClient(opts.EtcdEndpoints)
		if err != nil {
			return fmt.Errorf("cluster: etcd %v: %w", opts.EtcdEndpoints, err)
		}
		c.Etcd, c.ownsEtcd = cli, true
		return nil
	}
	dir, err := c.dataDir()
	if err != nil {
		return err
	}
	e, err := store.StartEmbedded(store.EmbeddedConfig{DataDir: filepath.Join(dir, "etcd")})
	if err != nil {
		return fmt.Errorf("cluster: embedded etcd: %w", err)
	}
	c.embedded, c.Etcd = e, e.Client()
	// Its port is the kernel's choice: say it, for etcdctl and kubeloop decode.
	c.log.Info("embedded etcd serving", "endpoints", strings.Join(e.Endpoints(), ","))
	return nil
}

func (c *Cluster) startAPIServer(opts Options) error {
	dir, err := c.dataDir()
	if err != nil {
		return err
	}
	addr := opts.Listen
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	cfg := apiserver.Config{Etcd: c.Etcd, Logger: c.log,
		AuthorizationModes: opts.authorizationModes(), EnableAdmissionPlugins: opts.admissionPlugins(),
		MaxRequestsInFlight: opts.MaxRequestsInFlight, MaxMutatingRequestsInFlight: opts.MaxMutatingRequestsInFlight}
	cfg.Authentication.TokenAuthFile = opts.TokenAuthFile
	if opts.InsecureHTTP {
		c.Config, err = insecureAdmin(&cfg)
	} else {
		c.Config, err = c.secureAdmin(&cfg, filepath.Join(dir, "pki"), addr)
	}
	if err != nil {
		return err
	}
	srv, err := apiserver.New(cfg)
	if err != nil {
		return err
	}
	c.server = srv
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("cluster: listen %s: %w", addr, err)
	}
	c.listener = ln
	scheme := "https://"
	if opts.InsecureHTTP {
		scheme = "http://"
	}
	c.URL = scheme + ln.Addr().String()
	c.Config.Host = c.URL

	serveCtx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	c.serveErr = make(chan error, 1)
	go func() { c.serveErr <- srv.Serve(serveCtx, ln) }()

	c.KubeconfigPath = filepath.Join(dir, "kubeconfig")
	if err := client.WriteKubeconfig(c.KubeconfigPath, c.Config); err != nil {
		return fmt.Errorf("cluster: kubeconfig: %w", err)
	}
	cli, err := client.NewForConfig(c.Config.ForComponent("cluster"))
	if err != nil {
		return err
	}
	c.Client = cli
	if err := c.waitReadyz(30 * time.Second); err != nil {
		return err
	}
	if err := c.writeComponentKubeconfigs(filepath.Join(dir, "pki")); err != nil {
		return err
	}
	ctx, cancelGrants := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancelGrants()
	return c.reconcileControllerManagerGrants(ctx)
}

// secureAdmin loads (or creates, on first start) the CA, the serving
// certificate and the admin's client certificate under pkiDir, configures
// cfg to serve HTTPS and trust the CA's client certificates, and returns
// the admin's client config (without Host).
func (c *Cluster) secureAdmin(cfg *apiserver.Config, pkiDir, addr string) (*client.Config, error) {
	ca, err := pki.LoadOrCreateCA(pkiDir)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	serving, err := pki.LoadOrCreateServing(pkiDir, "apiserver", ca, pki.ServingHosts(addr))
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	cert, err := tls.X509KeyPair(serving.CertPEM, serving.KeyPEM)
	if err != nil {
		return nil, fmt.Errorf("cluster: serving certificate: %w", err)
	}
	admin, err := pki.LoadOrCreateClient(pkiDir, "admin", ca, AdminUser, []string{user.SystemPrivilegedGroup})
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	saKey, err := pki.LoadOrCreateKey(pkiDir, "sa")
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	c.CA = ca
	cfg.ServingCert = &cert
	cfg.Authentication.ServiceAccountKey = saKey
	cfg.Authentication.ClientCA = ca.Pool()
	return &client.Config{TLS: client.TLSConfig{CAData: ca.CertPEM, CertData: admin.CertPEM, KeyData: admin.KeyPEM}}, nil
}

// insecureAdmin makes up an admin bearer token for a plain-HTTP cluster,
// where there are no client certificates.
func insecureAdmin(cfg *apiserver.Config) (*client.Config, error) {
	token := rand.Text()
	admin := &user.Info{Name: AdminUser, Groups: []string{user.SystemPrivilegedGroup}}
	cfg.Authentication.Tokens = []authenticator.Token{tokenfile.New(map[string]*user.Info{token: admin})}
	return &client.Config{BearerToken: token}, nil
}

// ConfigFor returns a client config that authenticates as user name in
// groups with a fresh client certificate from the cluster's CA. It is how
// tests and components get an identity of their own.
func (c *Cluster) ConfigFor(name string, groups ...string) (*client.Config, error) {
	if c.CA == nil {
		return nil, errors.New("cluster: no CA (InsecureHTTP): client certificates are not available")
	}
	kp, err := c.CA.IssueClient(name, groups)
	if err != nil {
		return nil, err
	}
	cfg := *c.Config
	cfg.BearerToken = ""
	cfg.TLS.CertData, cfg.TLS.KeyData = kp.CertPEM, kp.KeyPEM
	return &cfg, nil
}

// waitReadyz polls /readyz over HTTP, as a user would.
func (c *Cluster) waitReadyz(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		_, err := c.Client.DoRaw(ctx, "GET", "/readyz", nil, nil)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster: apiserver not ready: %w", err)
		case err := <-c.serveErr:
			// The server gave up (it refused its address): say why, and
			// leave the error for Stop, which waits for it.
			c.serveErr <- err
			return err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Stop stops every component, the apiserver and the embedded etcd, and
// removes the temporary data dir. It is safe to call more than once.
func (c *Cluster) Stop() {
	c.stopOnce.Do(func() {
		c.mu.Lock()
		for _, cancel := range c.component {
			cancel()
		}
		c.mu.Unlock()
		c.wg.Wait()
		if c.cancel != nil {
			c.cancel()
			if err := <-c.serveErr; err != nil && !errors.Is(err, context.Canceled) {
				c.log.Warn("apiserver stopped with error", "err", err)
			}
		}
		if c.server != nil {
			c.server.Close()
		}
		if c.embedded != nil {
			c.embedded.Close()
		} else if c.ownsEtcd && c.Etcd != nil {
			_ = c.Etcd.Close()
		}
		if c.tempDir != "" {
			_ = os.RemoveAll(c.tempDir)
		}
	})
}

// run starts one named component on its own goroutine; Stop, or
// StopComponent, cancels it and waits for it to return.
func (c *Cluster) run(name string, fn func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(trace.WithComponent(context.Background(), name))
	done := make(chan struct{})
	c.mu.Lock()
	c.component[name] = func() { cancel(); <-done }
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer close(done)
		fn(ctx)
	}()
}

// StopComponent stops one component (a controller manager, a node's
// kubelet) while the rest of the cluster keeps running, so tests can
// simulate a crash or a lost node.
func (c *Cluster) StopComponent(name string) error {
	c.mu.Lock()
	stop, ok := c.component[name]
	delete(c.component, name)
	c.mu.Unlock()
	if !ok {
		return fmt.Errorf("cluster: no component %q", name)
	}
	stop()
	return nil
}

// ComponentConfig is the client config of a component that authenticates
// as user in groups (system:kube-scheduler, system:node:<name> in
// system:nodes, ...), with a client certificate of its own, as kubeadm
// gives each component its kubeconfig. Without a CA (InsecureHTTP) it is
// the admin's config.
func (c *Cluster) ComponentConfig(component, name string, groups ...string) (*client.Config, error) {
	if c.CA == nil {
		return c.Config.ForComponent(component), nil
	}
	cfg, err := c.ConfigFor(name, groups...)
	if err != nil {
		return nil, err
	}
	return cfg.ForComponent(component), nil
}

// UseServiceAccountCredentials reports Options.UseServiceAccountCredentials:
// whether the controller manager is to run each controller as its own
// ServiceAccount.
func (c *Cluster) UseServiceAccountCredentials() bool { return c.opts.UseServiceAccountCredentials }

// NewComponentClient is a client from ComponentConfig.
func (c *Cluster) NewComponentClient(component, name string, groups ...string) (*client.Client, error) {
	cfg, err := c.ComponentConfig(component, name, groups...)
	if err != nil {
		return nil, err
	}
	return client.NewForConfig(cfg)
}

// NewClient returns a fresh client named for a component.
func (c *Cluster) NewClient(component string) (*client.Client, error) {
	return client.NewForConfig(c.Config.ForComponent(component))
}
