package apiserver

import (
	"context"
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/registry/customresourcedefinition"
	"kubeloop/apiserver/printers"
	"kubeloop/apiserver/registry/apps/deployment"
	"kubeloop/apiserver/registry/apps/replicaset"
	"kubeloop/apiserver/registry/batch/job"
	"kubeloop/apiserver/registry/core/namespace"
	"kubeloop/apiserver/registry/core/pod"
	"kubeloop/apiserver/registry/core/secret"
	"kubeloop/apiserver/registry/core/serviceaccount"
	"kubeloop/apiserver/registry/generic"
	rbacregistry "kubeloop/apiserver/registry/rbac"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/store"
	"kubeloop/watchcache"
)

// WatchCacheOptions tunes the watch cache in front of every resource but
// those of noWatchCache.
type WatchCacheOptions = watchcache.Options

// restStorageProviders is how each resource's REST storage is made: its
// registry package's NewStorage, over the generic Store. A resource with
// nothing of its own (ConfigMaps, Events, Leases, Nodes) is not listed and
// gets generic.NewStorage. Adding a kind is its strategy (a registry
// package) and, if it has one, an entry here; the handlers do not change.
// Kubernetes: pkg/controlplane/apiserver/options and each group's
// pkg/registry/<group>/rest/storage_<group>.go (NewRESTStorage).
func (s *Server) restStorageProviders() map[api.GroupResource]func(generic.Options) map[string]rest.Storage {
	return map[api.GroupResource]func(generic.Options) map[string]rest.Storage{
		{Resource: "pods"}:                                                     pod.NewStorage,
		{Group: "apps", Resource: "replicasets"}:                               replicaset.NewStorage,
		{Group: "apps", Resource: "deployments"}:                               deployment.NewStorage,
		{Group: "batch", Resource: "jobs"}:                                     job.NewStorage,
		{Resource: "secrets"}:                                                  secret.NewStorage,
		{Resource: "serviceaccounts"}:                                          serviceaccount.NewStorage,
		{Group: "apiextensions.k8s.io", Resource: "customresourcedefinitions"}: customresourcedefinition.NewStorage,
		{Group: api.RBACGroupName, Resource: "roles"}:                          s.rbacStorage,
		{Group: api.RBACGroupName, Resource: "clusterroles"}:                   s.rbacStorage,
		{Group: api.RBACGroupName, Resource: "rolebindings"}:                   s.rbacStorage,
		{Group: api.RBACGroupName, Resource: "clusterrolebindings"}:            s.rbacStorage,
		{Resource: "namespaces"}: func(o generic.Options) map[string]rest.Storage {
			var m map[string]rest.Storage
			s.namespaces, m = namespace.NewStorage(o, s.namespaceTerminating)
			return m
		},
	}
}

// buildStorage gives every registered kind its storage — by default the
// etcd store wrapped in a watch cache, as Kubernetes' StorageWithCacher does
// (staging/src/k8s.io/apiserver/pkg/registry/generic/registry/storage_factory.go)
// — and its REST storage over that.
func (s *Server) buildStorage(ctx context.Context, cfg Config) error {
	providers := s.restStorageProviders()
	for _, info := range s.reg.All() {
		st, ready, _, err := s.newStorage(ctx, cfg, info)
		if err != nil {
			return err
		}
		if ready != nil {
			s.readyChecks = append(s.readyChecks, ready)
		}
		s.storage[info] = st
		o := generic.Options{Info: info, Storage: st, TableConvertor: printers.NewTableConvertor(info), Logger: s.log}
		newREST, ok := providers[info.GroupResource()]
		if !ok {
			newREST = generic.NewStorage
		}
		s.restStorage[info] = newREST(o)
	}
	if s.namespaces == nil {
		return fmt.Errorf("apiserver: the registry serves no namespaces")
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

// noWatchCache are the resources served from etcd alone whatever the
// configuration: Events, as Kubernetes' DefaultWatchCacheSizes disables
// their watch cache (pkg/kubeapiserver/default_storage_factory_builder.go).
// They are the most written kind (each pod start writes several) and
// the least read; caching them cost every event write a copy, its
// selector fields and a place in the ring, and at 30 000 pods some 60 000
// cached objects nobody watched.
var noWatchCache = map[api.GroupResource]bool{{Resource: "events"}: true}

// newStorage is the storage of one resource: cfg.NewStorage's, or etcd
// alone (DisableWatchCache, noWatchCache), or etcd behind a watch cache. ready (nil when
// there is nothing to wait for) tells when it can serve; stop ends it.
// Custom resources get theirs from here too, when their CRD is served.
func (s *Server) newStorage(ctx context.Context, cfg Config, info *api.ResourceInfo) (st store.Interface, ready func(context.Context) error, stop func(), err error) {
	stop = func() {}
	switch {
	case cfg.NewStorage != nil:
		st, err = cfg.NewStorage(ctx, info)
	case cfg.DisableWatchCache || noWatchCache[info.GroupResource()]:
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
			st, ready, stop = c, c.WaitReady, c.Stop
		}
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("apiserver: storage for %s: %w", info.GroupResource(), err)
	}
	return st, ready, stop, nil
}

// rbacStorage is the RBAC registry, with escalation prevention reading
// the authorizer the server builds once the storage exists.
func (s *Server) rbacStorage(o generic.Options) map[string]rest.Storage {
	return rbacregistry.NewStorage(o, s.escalation)
}
