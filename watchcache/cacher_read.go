package watchcache

import (
	"context"
	"strings"

	"kubeloop/api"
	"kubeloop/store"
)

// Create goes straight to the store; the cache learns of it from the watch.
func (c *Cacher) Create(ctx context.Context, key string, obj api.Object) (api.Object, error) {
	return c.storage.Create(ctx, key, obj)
}

// GuaranteedUpdate goes to the store, starting from the cached object when
// the caller has none, which saves the store a read when it is current.
func (c *Cacher) GuaranteedUpdate(ctx context.Context, key string, preconditions *store.Preconditions,
	tryUpdate store.UpdateFunc, cachedExisting api.Object) (api.Object, error) {
	if cachedExisting == nil {
		cachedExisting = c.cachedCopy(key)
	}
	return c.storage.GuaranteedUpdate(ctx, key, preconditions, tryUpdate, cachedExisting)
}

// Delete goes to the store, with the cached object as a starting guess.
func (c *Cacher) Delete(ctx context.Context, key string, preconditions *store.Preconditions,
	validate store.ValidateDeletionFunc, cachedExisting api.Object) (api.Object, error) {
	if cachedExisting == nil {
		cachedExisting = c.cachedCopy(key)
	}
	return c.storage.Delete(ctx, key, preconditions, validate, cachedExisting)
}

// cachedCopy is a private copy: the store may change what it is given.
func (c *Cacher) cachedCopy(key string) api.Object {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if e, ok := c.cache.store[key]; ok && c.ready {
		return e.Object.DeepCopyObject()
	}
	return nil
}

// CurrentResourceVersion is etcd's, not the cache's.
func (c *Cacher) CurrentResourceVersion(ctx context.Context) (uint64, error) {
	return c.storage.CurrentResourceVersion(ctx)
}

// Get with RV "0" reads memory; any other RV goes to the store (Kubernetes
// serves "N" from the cache too; Get is cheap in etcd, so we keep it simple).
// The returned object is shared: do not change it.
func (c *Cacher) Get(ctx context.Context, key string, opts store.GetOptions) (api.Object, error) {
	if opts.ResourceVersion != "0" {
		return c.storage.Get(ctx, key, opts)
	}
	c.mu.RLock()
	ready := c.ready
	e, ok := c.cache.store[key]
	c.mu.RUnlock()
	if !ready {
		return c.storage.Get(ctx, key, opts)
	}
	if !ok {
		return nil, api.NewNotFound(c.info.GroupResource(), key[strings.LastIndex(key, "/")+1:])
	}
	return e.Object, nil
}

// List serves from memory when it can (Kubernetes: Cacher.GetList):
// RV "0" at once, limit ignored (Kubernetes does the same: paging an
// in-memory list only costs the client round trips); RV "" once the cache
// has reached etcd's current revision; RV "N" (NotOlderThan) once it has
// reached N. Exact, continue, and a limit with any RV but "0" go to the
// store, and so does a fresh read the cache cannot prove (see waitFresh).
// Items are sorted by key and shared: do not change them.
func (c *Cacher) List(ctx context.Context, prefix string, opts store.ListOptions) (*store.ListResult, error) {
	if err := validateListOptions(opts); err != nil {
		return nil, err
	}
	if shouldDelegateList(opts) {
		return c.storage.List(ctx, prefix, opts)
	}
	minRV, err := parseResourceVersion(opts.ResourceVersion)
	if err != nil {
		return nil, err
	}
	if opts.ResourceVersion == "" {
		if minRV, err = c.storage.CurrentResourceVersion(ctx); err != nil {
			return nil, err
		}
	}
	if !c.waitFresh(ctx, minRV) {
		return c.storage.List(ctx, prefix, opts)
	}
	f := newFilter(prefix, opts.Predicate)
	c.mu.RLock()
	elems := c.cache.list(f)
	rv := c.cache.resourceVersion
	c.mu.RUnlock()
	items := make([]api.Object, len(elems))
	for i, e := range elems {
		items[i] = e.Object
	}
	return &store.ListResult{Items: items, ResourceVersion: rv}, nil
}

func shouldDelegateList(opts store.ListOptions) bool {
	hasContinue := opts.Predicate.Continue != ""
	hasLimit := opts.Predicate.Limit > 0 && opts.ResourceVersion != "0"
	exact := opts.ResourceVersionMatch == store.ResourceVersionMatchExact
	return hasContinue || hasLimit || exact
}
