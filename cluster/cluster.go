package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/apiserver"
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
	// (apiserver.Config.AuthorizationModes, EnableAdmissionPlugins).
	AuthorizationModes []string
	AdmissionPlugins   []string
}

// Cluster is a running cluster.
type Cluster struct {
	// URL is the apiserver's base URL, e.g. http://127.0.0.1:41234.
	URL string
	// KubeconfigPath points at a kubeconfig for this cluster (context "kubeloop").
	KubeconfigPath string
	// Config is the client config every component uses.
	Config *client.Config
	// Client is a ready client for tests.
	Client *client.Client
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
	return nil
}

func (c *Cluster) startAPIServer(opts Options) error {
	srv, err := apiserver.New(apiserver.Config{Etcd: c.Etcd, Logger: c.log,
		AuthorizationModes: opts.AuthorizationModes, EnableAdmissionPlugins: opts.AdmissionPlugins})
	if err != nil {
		return err
	}
	c.server = srv
	addr := opts.Listen
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("cluster: listen %s: %w", addr, err)
	}
	c.listener = ln
	c.URL = "http://" + ln.Addr().String()

	serveCtx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	c.serveErr = make(chan error, 1)
	go func() { c.serveErr <- srv.Serve(serveCtx, ln) }()

	dir, err := c.dataDir()
	if err != nil {
		return err
	}
	c.KubeconfigPath = filepath.Join(dir, "kubeconfig")
	c.Config = &client.Config{Host: c.URL}
	if err := client.WriteKubeconfig(c.KubeconfigPath, c.Config); err != nil {
		return fmt.Errorf("cluster: kubeconfig: %w", err)
	}
	cli, err := client.NewForConfig(c.Config.ForComponent("cluster"))
	if err != nil {
		return err
	}
	c.Client = cli
	return c.waitReadyz(30 * time.Second)
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

// NewClient returns a fresh client named for a component.
func (c *Cluster) NewClient(component string) (*client.Client, error) {
	return client.NewForConfig(c.Config.ForComponent(component))
}
