package apiserver

import (
	"context"
	"fmt"

	"kubeloop/store"
	"kubeloop/watchcache"
)

// WatchCacheOptions tunes the watch cache in front of every resource.
type WatchCacheOptions = watchcache.Options

// buildStorage gives every registered kind its storage: by default the etcd
// store wrapped in a watch cache, as Kubernetes' StorageWithCacher does
// (staging/src/k8s.io/apiserver/pkg/registry/generic/registry/storage_factory.go).
func (s *Server) buildStorage(ctx context.Context, cfg Config) error {
	for _, info := range s.reg.All() {
		var (
			st  store.Interface
			err error
		)
		switch {
		case cfg.NewStorage != nil:
			st, err = cfg.NewStorage(ctx, info)
		case cfg.DisableWatchCache:
			st = store.New(cfg.Etcd, info)
		default:
			opts := cfg.WatchCache
			if opts.Logger == nil {
				opts.Logger = s.log
			}
			if opts.Registerer == nil {
				opts.Registerer = cfg.Metrics
			}
			var c *watchcache.Cacher
			c, err = watchcache.New(ctx, store.New(cfg.Etcd, info), info, opts)
			if err == nil {
				st = c
				s.readyChecks = append(s.readyChecks, c.WaitReady)
			}
		}
		if err != nil {
			return fmt.Errorf("apiserver: storage for %s: %w", info.GroupResource(), err)
		}
		s.storage[info] = st
	}
	// Ready means etcd answers: asking for the current revision is the
	// cheapest round trip that proves it.
	for _, st := range s.storage {
		s.readyChecks = append([]func(context.Context) error{func(ctx context.Context) error {
			_, err := st.CurrentResourceVersion(ctx)
			return err
		}}, s.readyChecks...)
		break
	}
	return nil
}
