package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v3client"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// EmbeddedConfig says where and how to run an in-process etcd.
type EmbeddedConfig struct {
	// DataDir holds etcd's WAL and snapshot. Required.
	DataDir string
	// ClientURL is where clients connect, e.g. "http://127.0.0.1:2379".
	// Empty means 127.0.0.1 on a port the kernel picks.
	ClientURL string
	// PeerURL is the raft peer listener; a single member never dials it.
	// Empty means 127.0.0.1 on a port the kernel picks.
	PeerURL string
	// StartTimeout bounds the wait for the server to become ready
	// (default 30 s).
	StartTimeout time.Duration
	// LogLevel is etcd's own zap level (default "error", so etcd does not
	// flood test output or the cluster's logs).
	LogLevel string
	// UnsafeNoFsync skips fsync: much faster, loses data on a machine crash.
	// Tests and throwaway clusters use it; never for data you keep.
	UnsafeNoFsync bool
	// Name is this member's name (default "kubeloop").
	Name string
	// InitialCluster makes this server one member of a new multi-member
	// cluster: every member as "name=peerURL,…" (etcd's --initial-cluster).
	// PeerURL must then be this member's fixed address from that list.
	// Empty means a cluster of this one member.
	InitialCluster string
}

// singleMemberSnapshotCount is how many writes a single-member embedded
// etcd applies between snapshots, and how many raft entries it keeps before
// one (etcd's --snapshot-count and --snapshot-catchup-entries).
const singleMemberSnapshotCount = 1000

// Embedded is an etcd server running inside this process, plus a client
// connected to it.
type Embedded struct {
	etcd      *embed.Etcd
	client    *clientv3.Client
	endpoints []string
}

// StartEmbedded starts a single-member etcd and waits until it serves.
// Kubernetes always talks to an external etcd; embedding one lets
// `make run` and every test start a whole cluster in one process.
func StartEmbedded(cfg EmbeddedConfig) (*Embedded, error) {
	if cfg.DataDir == "" {
		return nil, errors.New("embedded etcd: DataDir is required")
	}
	if cfg.StartTimeout == 0 {
		cfg.StartTimeout = 30 * time.Second
	}
	if cfg.LogLevel == "" {
		cfg.LogLevel = "error"
	}
	clientURL, err := listenURL(cfg.ClientURL)
	if err != nil {
		return nil, fmt.Errorf("embedded etcd client URL: %w", err)
	}
	peerURL, err := listenURL(cfg.PeerURL)
	if err != nil {
		return nil, fmt.Errorf("embedded etcd peer URL: %w", err)
	}

	ec := embed.NewConfig()
	ec.Name = cfg.Name
	if ec.Name == "" {
		ec.Name = "kubeloop"
	}
	ec.Dir = cfg.DataDir
	ec.Logger = "zap"
	ec.LogLevel = cfg.LogLevel
	ec.LogOutputs = []string{"stderr"}
	ec.UnsafeNoFsync = cfg.UnsafeNoFsync
	if lvl, err := zapcore.ParseLevel(cfg.LogLevel); err == nil && lvl > zapcore.WarnLevel {
		// etcd renders every request slower than these thresholds as text
		// for a warning, before the logger drops it for being below our
		// level. Under load that was 2% of a busy cluster's CPU spent on
		// messages nobody sees.
		ec.WarningUnaryRequestDuration = time.Hour
		ec.WarningApplyDuration = time.Hour
	}
	// Port 0 asks the kernel for a free port, which avoids the race of
	// "find a free port, close it, hope nobody takes it". The advertised
	// URLs then say port 0; that is harmless for a single member, and
	// Endpoints reports the port actually bound.
	ec.ListenClientUrls = []url.URL{*clientURL}
	ec.AdvertiseClientUrls = []url.URL{*clientURL}
	ec.ListenPeerUrls = []url.URL{*peerURL}
	ec.AdvertisePeerUrls = []url.URL{*peerURL}
	ec.InitialCluster = ec.InitialClusterFromName(ec.Name)
	if cfg.InitialCluster != "" {
		ec.InitialCluster = cfg.InitialCluster
	} else {
		// A single member keeps fewer raft entries in memory. etcd holds
		// every entry since its last snapshot plus SnapshotCatchUpEntries
		// before it, for a follower that falls behind (10 000 + 5 000 by
		// default, each with its request: a pod's value and all). With no
		// followers the catch-up entries serve nobody, and a snapshot
		// every 1000 writes bounds the rest: about 30 MB less live heap
		// at 30 000 pods (docs/performance.md, session 8).
		ec.SnapshotCount = singleMemberSnapshotCount
		ec.SnapshotCatchUpEntries = singleMemberSnapshotCount
	}

	e, err := embed.StartEtcd(ec)
	if err != nil {
		return nil, fmt.Errorf("start embedded etcd: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return nil, fmt.Errorf("embedded etcd failed while starting: %w", err)
	case <-time.After(cfg.StartTimeout):
		e.Server.Stop()
		e.Close()
		return nil, fmt.Errorf("embedded etcd not ready after %s", cfg.StartTimeout)
	}

	endpoints := make([]string, 0, len(e.Clients))
	for _, l := range e.Clients {
		endpoints = append(endpoints, l.Addr().String())
	}
	// The apiserver in this process calls the server directly rather than
	// through gRPC on a socket: the same clientv3.Client API, without
	// protobuf framing, HTTP/2 and loopback TCP on every request and watch
	// event (a tenth of a busy cluster's CPU). Other processes still reach
	// the server through Endpoints.
	client := v3client.New(e.Server)
	return &Embedded{etcd: e, client: client, endpoints: endpoints}, nil
}

func listenURL(raw string) (*url.URL, error) {
	if raw == "" {
		raw = "http://127.0.0.1:0"
	}
	return url.Parse(raw)
}

// Endpoints are the host:port addresses clients dial.
func (e *Embedded) Endpoints() []string { return append([]string(nil), e.endpoints...) }

// Client is a client connected to the server; Close closes it.
func (e *Embedded) Client() *clientv3.Client { return e.client }

// NewInProcessClient is another client that calls the server directly, as
// Client does; the caller closes it. Tests use it for a client whose
// fate no other test shares (store/watch_storm_test.go).
func (e *Embedded) NewInProcessClient() *clientv3.Client { return v3client.New(e.etcd.Server) }

// Close stops the client and the server. The data directory stays.
func (e *Embedded) Close() {
	_ = e.client.Close()
	e.etcd.Close()
}

// NewClient connects to an etcd cluster (embedded or external). It fails if
// no endpoint answers within the dial timeout.
func NewClient(endpoints []string) (*clientv3.Client, error) {
	c, err := clientv3.New(clientv3.Config{
		Endpoints:   endpoints,
		DialTimeout: 10 * time.Second,
		// Status checks keep a broken connection from hanging a watch forever.
		DialKeepAliveTime:    30 * time.Second,
		DialKeepAliveTimeout: 10 * time.Second,
		// Lists of many objects exceed gRPC's default 4 MiB reply limit.
		MaxCallRecvMsgSize: 256 << 20,
		// The client logs every retried call at warn level; every error it
		// meets is also returned to us, so its log only duplicates them.
		Logger: zap.NewNop(),
	})
	if err != nil {
		return nil, fmt.Errorf("connect to etcd %v: %w", endpoints, err)
	}
	// clientv3.New does not wait for a connection; a cheap read does.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Get(ctx, "/registry/", clientv3.WithCountOnly()); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("etcd %v not answering: %w", endpoints, err)
	}
	return c, nil
}

// TempDataDir makes a fresh directory for an embedded etcd's data.
func TempDataDir() (string, error) {
	return os.MkdirTemp("", "kubeloop-etcd-*")
}
