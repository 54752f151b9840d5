package rbac

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"kubeloop/api"
	"kubeloop/store"
)

// PolicyCache is an in-memory copy of the roles and bindings, kept current
// by watching their storage (the watch caches): the authorizer reads it on
// every request without touching etcd. Like any informer it lags a write
// by the time its event takes to arrive.
//
// Kubernetes reads the same four kinds through shared informers
// (pkg/kubeapiserver/authorizer/config.go wires rbac.New with their
// listers).
type PolicyCache struct {
	// generation moves on with every change of any of the four kinds.
	generation          atomic.Uint64
	roles               *mirror[*api.Role]
	roleBindings        *mirror[*api.RoleBinding]
	clusterRoles        *mirror[*api.ClusterRole]
	clusterRoleBindings *mirror[*api.ClusterRoleBinding]
}

var _ PolicyGetter = (*PolicyCache)(nil)

// Sources are the storages the PolicyCache watches, with their resource infos.
type Sources struct {
	Roles, RoleBindings, ClusterRoles, ClusterRoleBindings Source
}

// Source is one resource's storage.
type Source struct {
	Info    *api.ResourceInfo
	Storage store.Interface
}

// NewPolicyCache starts watching until ctx ends. HasSynced reports when
// every kind has been listed once.
func NewPolicyCache(ctx context.Context, src Sources) *PolicyCache {
	c := &PolicyCache{}
	c.roles = newMirror[*api.Role](src.Roles, &c.generation)
	c.roleBindings = newMirror[*api.RoleBinding](src.RoleBindings, &c.generation)
	c.clusterRoles = newMirror[*api.ClusterRole](src.ClusterRoles, &c.generation)
	c.clusterRoleBindings = newMirror[*api.ClusterRoleBinding](src.ClusterRoleBindings, &c.generation)
	go c.roles.run(ctx)
	go c.roleBindings.run(ctx)
	go c.clusterRoles.run(ctx)
	go c.clusterRoleBindings.run(ctx)
	return c
}

// HasSynced is true once every kind has been listed.
func (c *PolicyCache) HasSynced() bool {
	return c.roles.hasSynced() && c.roleBindings.hasSynced() && c.clusterRoles.hasSynced() && c.clusterRoleBindings.hasSynced()
}

// Generation changes whenever a role or binding does (Generationer).
func (c *PolicyCache) Generation() uint64 { return c.generation.Load() }

// GetRole returns a role of the namespace.
func (c *PolicyCache) GetRole(namespace, name string) (*api.Role, bool) {
	return c.roles.get(namespace + "/" + name)
}

// ListRoleBindings returns the bindings of the namespace.
func (c *PolicyCache) ListRoleBindings(namespace string) []*api.RoleBinding {
	return c.roleBindings.list(namespace)
}

// GetClusterRole returns a cluster role.
func (c *PolicyCache) GetClusterRole(name string) (*api.ClusterRole, bool) {
	return c.clusterRoles.get("/" + name)
}

// ListClusterRoleBindings returns every cluster role binding.
func (c *PolicyCache) ListClusterRoleBindings() []*api.ClusterRoleBinding {
	return c.clusterRoleBindings.list("")
}

// mirror is one resource in memory: list, then watch from the list's
// version, and list again when the watch ends (a 410 included).
// Objects are grouped by namespace ("" for cluster-scoped kinds), so a
// namespace's bindings are one map lookup.
type mirror[T api.Object] struct {
	src Source
	// generation is the PolicyCache's, moved on after each change.
	generation *atomic.Uint64

	mu     sync.RWMutex
	byNS   map[string]map[string]T // namespace → name → object
	synced bool
}

func newMirror[T api.Object](src Source, generation *atomic.Uint64) *mirror[T] {
	return &mirror[T]{src: src, generation: generation, byNS: map[string]map[string]T{}}
}

func (m *mirror[T]) hasSynced() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.synced
}

func (m *mirror[T]) get(key string) (T, bool) {
	ns, name := splitKey(key)
	m.mu.RLock()
	defer m.mu.RUnlock()
	obj, ok := m.byNS[ns][name]
	return obj, ok
}

func (m *mirror[T]) list(namespace string) []T {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]T, 0, len(m.byNS[namespace]))
	for _, obj := range m.byNS[namespace] {
		out = append(out, obj)
	}
	return out
}

func splitKey(key string) (string, string) {
	for i := range len(key) {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}

// run lists and watches until ctx ends, waiting a little between
// failures so a broken storage is not hammered.
func (m *mirror[T]) run(ctx context.Context) {
	for ctx.Err() == nil {
		if err := m.listAndWatch(ctx); err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
}

func (m *mirror[T]) listAndWatch(ctx context.Context) error {
	prefix := m.src.Info.KeyPrefix()
	res, err := m.src.Storage.List(ctx, prefix, store.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return err
	}
	fresh := map[string]map[string]T{}
	for _, obj := range res.Items {
		putInto(fresh, obj.(T))
	}
	m.mu.Lock()
	m.byNS, m.synced = fresh, true
	m.mu.Unlock()
	m.generation.Add(1)

	w, err := m.src.Storage.Watch(ctx, prefix, store.ListOptions{ResourceVersion: strconv.FormatUint(res.ResourceVersion, 10)})
	if err != nil {
		return err
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		obj, ok := ev.Object.(T)
		if !ok {
			continue // an ERROR event carries a Status; the watch ends after it and we relist
		}
		m.mu.Lock()
		switch ev.Type {
		case api.Added, api.Modified:
			putInto(m.byNS, obj)
		case api.Deleted:
			meta := obj.GetObjectMeta()
			delete(m.byNS[meta.Namespace], meta.Name)
		}
		m.mu.Unlock()
		// After the change: a resolution that read the old generation is
		// filed under it and never used again.
		m.generation.Add(1)
	}
	return nil
}

func putInto[T api.Object](byNS map[string]map[string]T, obj T) {
	meta := obj.GetObjectMeta()
	if byNS[meta.Namespace] == nil {
		byNS[meta.Namespace] = map[string]T{}
	}
	byNS[meta.Namespace][meta.Name] = obj
}
