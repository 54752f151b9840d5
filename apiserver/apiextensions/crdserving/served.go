package crdserving

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"sync"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/cel"
	"kubeloop/apiserver/apiextensions/registry/customresource"
	"kubeloop/apiserver/apiextensions/schema"
	"kubeloop/apiserver/endpoints"
	"kubeloop/apiserver/endpoints/handlers"
	"kubeloop/apiserver/endpoints/metrics"
	"kubeloop/apiserver/openapi"
	"kubeloop/apiserver/registry/generic"
	"kubeloop/store"
)

// StorageFactory makes the storage of one CRD's custom resources (info is
// its storage version): etcd behind a watch cache, as for every built-in
// resource. stop ends it (its watches end with it); ready waits until it
// can serve.
type StorageFactory func(ctx context.Context, info *api.ResourceInfo) (st store.Interface, ready func(context.Context) error, stop func(), err error)

// Config is what the served table needs to build a CRD's endpoints.
type Config struct {
	// NewStorage builds a CRD's storage.
	NewStorage StorageFactory
	// Scope is the template of every endpoint's RequestScope (admission,
	// logger, metrics, stop context); the serializers are replaced by the
	// custom resource ones.
	Scope   handlers.RequestScope
	Metrics *metrics.Metrics
	Logger  *slog.Logger
}

// Served is the table of the custom resources being served: what the
// registry's static table is for built-in kinds, but changed at run time.
// A CRD's whole set of endpoints (every served version, its storage, its
// handlers) is built outside the lock and swapped in under it, so a
// request sees either the old set or the new one, never a part.
// Kubernetes: apiextensions-apiserver pkg/apiserver/customresource_handler.go
// (crdHandler, its customStorage map swapped atomically, getOrCreateServingInfoFor).
type Served struct {
	cfg      Config
	compiler *cel.Compiler

	mu sync.RWMutex
	// crds is every registered CRD by name; versions indexes their served
	// versions by "group/version/resource". Invariant: a version is in
	// versions exactly when its CRD is in crds.
	crds     map[string]*crdInfo
	versions map[string]*versionInfo
	// generation counts the changes of the table, for OpenAPI.
	generation uint64
}

// crdInfo is one registered CRD: the object it was built from and the
// one storage its versions share.
type crdInfo struct {
	crd         *api.CustomResourceDefinition
	storageInfo *api.ResourceInfo
	storage     store.Interface
	stop        func()
	versions    []*versionInfo // sorted by version priority
	// terminating: the CRD is being deleted; creates are refused.
	terminating bool
}

// versionInfo is one served version of a registered CRD.
type versionInfo struct {
	crd     *crdInfo
	version *customresource.Version
	handler *endpoints.ResourceHandler
	// generic is the version's main REST storage, which the cleanup of a
	// deleted CRD deletes through.
	generic *generic.Store
}

// NewServed is an empty table.
func NewServed(cfg Config) (*Served, error) {
	c, err := cel.NewCompiler()
	if err != nil {
		return nil, fmt.Errorf("crdserving: %w", err)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Served{cfg: cfg, compiler: c, crds: map[string]*crdInfo{}, versions: map[string]*versionInfo{}}, nil
}

func versionKey(group, version, resource string) string {
	return group + "/" + version + "/" + resource
}

// Register serves crd (its accepted names, its served versions) or, if it
// is served already, replaces its endpoints. The storage is kept when the
// storage version, kind and scope are unchanged, so watches of custom
// resources survive a CRD update that only touches schemas or columns.
func (s *Served) Register(ctx context.Context, crd *api.CustomResourceDefinition) error {
	crd = crd.DeepCopy()
	s.mu.RLock()
	old := s.crds[crd.Name]
	s.mu.RUnlock()
	if old != nil && sameServing(old.crd, crd) && old.terminating == isTerminating(crd) {
		return nil
	}
	ci := &crdInfo{crd: crd, terminating: isTerminating(crd)}
	var versions []*customresource.Version
	for _, v := range crd.Spec.Versions {
		if !v.Served && !v.Storage {
			continue
		}
		cv, err := customresource.NewVersion(crd, v.Name, s.compiler)
		if err != nil {
			return err
		}
		if v.Storage {
			ci.storageInfo = cv.Info
		}
		if v.Served {
			versions = append(versions, cv)
		}
	}
	if ci.storageInfo == nil {
		return fmt.Errorf("crdserving: %s has no storage version", crd.Name)
	}
	// The storage decodes with its version's schema (defaults and pruning
	// on read), so a new storage schema needs a new storage.
	reuse := old != nil && sameStorage(old.storageInfo, ci.storageInfo) &&
		api.SemanticEqual(storageSchema(old.crd), storageSchema(crd))
	if reuse {
		ci.storage, ci.stop = old.storage, old.stop
	} else {
		st, ready, stop, err := s.cfg.NewStorage(ctx, ci.storageInfo)
		if err != nil {
			return fmt.Errorf("crdserving: storage of %s: %w", crd.Name, err)
		}
		if ready == nil {
			ready = func(context.Context) error { return nil }
		}
		if err := ready(ctx); err != nil {
			stop()
			return fmt.Errorf("crdserving: storage of %s: %w", crd.Name, err)
		}
		ci.storage, ci.stop = st, stop
	}
	for _, cv := range versions {
		vi, err := s.newVersionInfo(ci, cv)
		if err != nil {
			if !reuse {
				ci.stop()
			}
			return err
		}
		ci.versions = append(ci.versions, vi)
	}
	sort.SliceStable(ci.versions, func(i, j int) bool {
		return VersionPriorityLess(ci.versions[j].version.Info.Version, ci.versions[i].version.Info.Version)
	})

	s.mu.Lock()
	if old := s.crds[crd.Name]; old != nil {
		s.removeLocked(old)
	}
	s.crds[crd.Name] = ci
	for _, vi := range ci.versions {
		info := vi.version.Info
		s.versions[versionKey(info.Group, info.Version, info.Resource)] = vi
	}
	s.generation++
	s.mu.Unlock()
	if old != nil && !reuse {
		old.stop()
	}
	s.cfg.Logger.Info("serving", "crd", crd.Name, "versions", len(ci.versions), "storageVersion", ci.storageInfo.Version)
	return nil
}

func (s *Served) newVersionInfo(ci *crdInfo, cv *customresource.Version) (*versionInfo, error) {
	o := generic.Options{Storage: ci.storage, Logger: s.cfg.Logger}
	storages, err := customresource.NewStorage(o, cv, ci.storageInfo.Version)
	if err != nil {
		return nil, fmt.Errorf("crdserving: %s version %s: %w", ci.crd.Name, cv.Info.Version, err)
	}
	scope := s.cfg.Scope
	scope.Serializers = customresource.Serializers(cv)
	return &versionInfo{
		crd: ci, version: cv,
		handler: endpoints.NewResourceHandler(cv.Info, storages, scope, s.cfg.Metrics),
		generic: storages[""].(*generic.Store),
	}, nil
}

// Unregister stops serving the CRD name and ends its storage (and so
// every watch of its custom resources).
func (s *Served) Unregister(name string) {
	s.mu.Lock()
	ci := s.crds[name]
	if ci != nil {
		s.removeLocked(ci)
	}
	s.mu.Unlock()
	if ci != nil {
		ci.stop()
		s.cfg.Logger.Info("unserved", "crd", name)
	}
}

func (s *Served) removeLocked(ci *crdInfo) {
	s.generation++
	delete(s.crds, ci.crd.Name)
	for _, vi := range ci.versions {
		info := vi.version.Info
		if s.versions[versionKey(info.Group, info.Version, info.Resource)] == vi {
			delete(s.versions, versionKey(info.Group, info.Version, info.Resource))
		}
	}
}

// Close stops every CRD's storage.
func (s *Served) Close() {
	s.mu.Lock()
	crds := s.crds
	s.crds, s.versions = map[string]*crdInfo{}, map[string]*versionInfo{}
	s.mu.Unlock()
	for _, ci := range crds {
		ci.stop()
	}
}

// All lists the served versions of every registered CRD as kinds, sorted
// by group and, within a group, by version priority (so discovery's
// preferred version is Kubernetes'), for discovery and OpenAPI.
func (s *Served) All() []*api.ResourceInfo {
	s.mu.RLock()
	var out []*api.ResourceInfo
	for _, ci := range s.crds {
		for _, vi := range ci.versions {
			out = append(out, vi.version.Info)
		}
	}
	s.mu.RUnlock()
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Group != out[j].Group {
			return out[i].Group < out[j].Group
		}
		if out[i].Version != out[j].Version {
			return VersionPriorityLess(out[j].Version, out[i].Version)
		}
		return out[i].Resource < out[j].Resource
	})
	return out
}

// OpenAPIVersion changes whenever a CRD is registered or unregistered.
func (s *Served) OpenAPIVersion() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.generation
}

// OpenAPIKinds is every served version with its schema, for /openapi.
func (s *Served) OpenAPIKinds() []openapi.CustomKind {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []openapi.CustomKind
	for _, ci := range s.crds {
		for _, vi := range ci.versions {
			out = append(out, openapi.CustomKind{Info: vi.version.Info, Schema: vi.version.Schema})
		}
	}
	return out
}

// StructuralSchema is the structural schema of a served custom resource
// version (nil when the version has none), for server-side apply's list
// types and map keys (x-kubernetes-list-type, x-kubernetes-list-map-keys).
func (s *Served) StructuralSchema(group, version, resource string) (*schema.Structural, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	vi, ok := s.versions[versionKey(group, version, resource)]
	if !ok {
		return nil, false
	}
	return vi.version.Structural, true
}

// lookup finds the served version a request names.
func (s *Served) lookup(group, version, resource string) (*versionInfo, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	vi, ok := s.versions[versionKey(group, version, resource)]
	return vi, ok
}

// Serves reports whether a CRD serves group/version/resource.
func (s *Served) Serves(group, version, resource string) bool {
	_, ok := s.lookup(group, version, resource)
	return ok
}

// servesGroupVersion reports whether any CRD serves group/version.
func (s *Served) servesGroupVersion(group, version string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, vi := range s.versions {
		if vi.version.Info.Group == group && vi.version.Info.Version == version {
			return true
		}
	}
	return false
}

// storageStore is the REST store of the CRD's storage version (or its
// first served one), through which its custom resources are deleted.
func (s *Served) storageStore(name string) (*generic.Store, *api.ResourceInfo, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ci, ok := s.crds[name]
	if !ok || len(ci.versions) == 0 {
		return nil, nil, false
	}
	for _, vi := range ci.versions {
		if vi.version.Info.Version == ci.storageInfo.Version {
			return vi.generic, ci.storageInfo, true
		}
	}
	return ci.versions[0].generic, ci.storageInfo, true
}

// sameServing says whether two CRD objects serve the same endpoints: the
// same spec (generation) and accepted names.
func sameServing(a, b *api.CustomResourceDefinition) bool {
	return a.UID == b.UID && a.Generation == b.Generation && namesEqual(a.Status.AcceptedNames, b.Status.AcceptedNames)
}

func namesEqual(a, b api.CustomResourceDefinitionNames) bool {
	return api.SemanticEqual(&a, &b)
}

func sameStorage(a, b *api.ResourceInfo) bool {
	return a.GroupVersion() == b.GroupVersion() && a.Kind == b.Kind && a.Namespaced == b.Namespaced && a.Resource == b.Resource
}

// storageSchema is the schema of the CRD's storage version.
func storageSchema(crd *api.CustomResourceDefinition) *api.CustomResourceValidation {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Schema
		}
	}
	return nil
}

func isTerminating(crd *api.CustomResourceDefinition) bool { return crd.DeletionTimestamp != nil }
