package endpoints

import (
	"net/http"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/handlers"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
	"kubeloop/apiserver/endpoints/metrics"
	"kubeloop/apiserver/endpoints/request"
	"kubeloop/apiserver/fieldmanager"
	"kubeloop/apiserver/fieldmanager/typed"
	"kubeloop/apiserver/registry/rest"
)

// Config is what the API handler serves.
type Config struct {
	Registry *api.Registry
	// Storage is the REST storage of every resource, by subresource name
	// ("" for the resource itself, "status", "scale", "binding").
	// Kubernetes: APIGroupInfo.VersionedResourcesStorageMap, whose keys
	// are "pods", "pods/status", ...
	Storage map[*api.ResourceInfo]map[string]rest.Storage
	// Scope is the template of every endpoint's RequestScope (serializers,
	// admission, logger, metrics, stop context); the installer fills in
	// the resource, subresource, kind and table convertor.
	Scope handlers.RequestScope
	// Discovery answers the requests under /api and /apis that name no
	// resource.
	Discovery http.Handler
	// DisableManagedFields installs no field managers: writes record no
	// managedFields and apply is 415 (to measure what tracking costs).
	DisableManagedFields bool
	Metrics              *metrics.Metrics
	// Delegate, if set, answers the resource requests it Serves that the
	// Registry does not have: the custom resources (Kubernetes chains
	// kube-apiserver to the apiextensions-apiserver the same way, as its
	// NotFound handler).
	Delegate Delegate
}

// Delegate serves resources known only at run time.
type Delegate interface {
	http.Handler
	// Serves reports whether the delegate has group/version/resource.
	Serves(group, version, resource string) bool
}

// APIHandler routes /api and /apis: each resource request to the handler
// of its verb over its resource's (or subresource's) REST storage.
type APIHandler struct {
	// groupVersions are the served "group/version"s ("/v1" for the core group).
	groupVersions map[string]bool
	// resources are keyed "group/resource".
	resources map[string]*resourceEndpoints
	discovery http.Handler
	metrics   *metrics.Metrics
	delegate  Delegate
}

// resourceEndpoints are the handlers of one resource: by subresource
// ("" for the resource itself), then by verb.
type resourceEndpoints struct {
	info     *api.ResourceInfo
	handlers map[string]map[string]http.Handler
}

// NewAPIHandler installs every resource's handlers. Kubernetes:
// endpoints/installer.go (APIInstaller.Install, registerResourceHandlers).
func NewAPIHandler(cfg Config) *APIHandler {
	h := &APIHandler{
		groupVersions: map[string]bool{},
		resources:     map[string]*resourceEndpoints{},
		discovery:     cfg.Discovery,
		metrics:       cfg.Metrics,
		delegate:      cfg.Delegate,
	}
	for _, info := range cfg.Registry.All() {
		h.groupVersions[info.Group+"/"+info.Version] = true
		h.resources[info.Group+"/"+info.Resource] = newResourceEndpoints(info, cfg.Storage[info], cfg.Scope, !cfg.DisableManagedFields)
	}
	return h
}

// newResourceEndpoints installs the handlers of one resource and its
// subresources, each with its own copy of the scope template and, if
// trackManagedFields, its own field manager.
func newResourceEndpoints(info *api.ResourceInfo, storage map[string]rest.Storage, template handlers.RequestScope, trackManagedFields bool) *resourceEndpoints {
	re := &resourceEndpoints{info: info, handlers: map[string]map[string]http.Handler{}}
	_, hasStatus := storage["status"]
	for sub, st := range storage {
		scope := template
		scope.Resource, scope.Subresource, scope.Kind = info, sub, rest.KindOf(info)
		if p, ok := st.(rest.GroupVersionKindProvider); ok {
			scope.Kind = p.GroupVersionKind()
		}
		if tc, ok := st.(rest.TableConvertor); ok && sub == "" {
			scope.TableConvertor = tc
		}
		if trackManagedFields {
			scope.FieldManager = fieldManagerFor(st, sub, scope.Kind, rest.KindOf(info), hasStatus)
		}
		re.handlers[sub] = registerResourceHandlers(st, sub, &scope)
	}
	return re
}

// ResourceHandler serves one resource at one version, built at run time:
// what the custom resource handler installs for each served version of a
// CRD. Its requests must carry their RequestInfo (filters.WithRequestInfo).
type ResourceHandler struct {
	re      *resourceEndpoints
	metrics *metrics.Metrics
}

// NewResourceHandler installs the handlers of info's resource and
// subresources over storage, as NewAPIHandler does for the registry's.
func NewResourceHandler(info *api.ResourceInfo, storage map[string]rest.Storage, scope handlers.RequestScope, m *metrics.Metrics) *ResourceHandler {
	return &ResourceHandler{re: newResourceEndpoints(info, storage, scope, true), metrics: m}
}

// ServeHTTP serves one request to the resource, counted in the metrics.
func (h *ResourceHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ri, ok := request.RequestInfoFrom(r.Context())
	if !ok {
		ri = request.NewRequestInfo(r)
		r = r.WithContext(request.WithRequestInfo(r.Context(), ri))
	}
	if ri.Namespace != "" && !h.re.info.Namespaced {
		responsewriters.WriteStatus(w, notFoundResource())
		return
	}
	start := time.Now()
	rec := metrics.NewResponseWriterDelegator(w)
	defer func() {
		h.metrics.Observe(ri.Verb, h.re.info.Resource, ri.Subresource, rec.Status(), time.Since(start))
	}()
	h.re.serve(rec, r, ri)
}

// fieldManagerFor tracks managedFields where a write changes the
// resource's own object (the resource and its status) and on scale, whose
// Scale has a field manager of its own while the registry moves the
// ownership of replicas between the object and the Scale
// (generic.ScaleREST, fieldmanager.ScaleHandler), as in Kubernetes. A
// binding is not tracked: Kubernetes' binding storage sets the pod's node
// without its field manager. The schema is the kind's Go type's, or the
// one the storage gives (a custom resource's, from its CRD). Without a
// status subresource the main resource owns status like any field.
func fieldManagerFor(storage rest.Storage, sub string, kind, own api.KindInfo, hasStatus bool) *fieldmanager.FieldManager {
	if sub == "scale" {
		return fieldmanager.NewFieldManager(typed.ForObject(storage.New()), kind.GroupVersion(), sub)
	}
	if (sub != "" && sub != "status") || kind != own {
		return nil
	}
	if _, stored := storage.(rest.Getter); !stored {
		// A create-only storage (the reviews) keeps nothing: no fields to own.
		return nil
	}
	var t *typed.Type
	if p, ok := storage.(interface{ ManagedFieldsSchema() *typed.Type }); ok {
		t = p.ManagedFieldsSchema()
	}
	if obj := storage.New(); t == nil {
		if _, custom := obj.(*api.Unstructured); custom {
			return nil
		}
		t = typed.ForObject(obj)
	}
	fm := fieldmanager.NewFieldManager(t, kind.GroupVersion(), sub)
	if !hasStatus {
		fm.ResetFields = nil
	}
	return fm
}

// registerResourceHandlers serves exactly the verbs the storage
// implements; collections (list, watch, deletecollection) only on the
// resource itself.
func registerResourceHandlers(storage rest.Storage, sub string, scope *handlers.RequestScope) map[string]http.Handler {
	verbs := map[string]http.Handler{}
	if s, ok := storage.(rest.Getter); ok {
		verbs["get"] = handlers.GetResource(s, scope)
	}
	if s, ok := storage.(rest.Creater); ok {
		verbs["create"] = handlers.CreateResource(s, scope)
	}
	if s, ok := storage.(rest.Updater); ok {
		verbs["update"] = handlers.UpdateResource(s, scope)
	}
	if s, ok := storage.(rest.Patcher); ok {
		verbs["patch"] = handlers.PatchResource(s, scope)
	}
	if s, ok := storage.(rest.GracefulDeleter); ok && sub == "" {
		verbs["delete"] = handlers.DeleteResource(s, scope)
	}
	if sub != "" {
		return verbs
	}
	if s, ok := storage.(rest.Lister); ok {
		verbs["list"] = handlers.ListResource(s, scope)
	}
	if s, ok := storage.(rest.Watcher); ok {
		verbs["watch"] = handlers.WatchResource(s, scope)
	}
	if s, ok := storage.(rest.CollectionDeleter); ok {
		verbs["deletecollection"] = handlers.DeleteCollection(s, scope)
	}
	return verbs
}

// ServeHTTP routes one request under /api or /apis. An unknown API group
// is a plain 404; an unknown resource in a known group is a 404 Status, as
// in Kubernetes. Every resource request is counted in the request metrics.
func (h *APIHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ri, ok := request.RequestInfoFrom(r.Context())
	if !ok {
		ri = request.NewRequestInfo(r)
		r = r.WithContext(request.WithRequestInfo(r.Context(), ri))
	}
	if ri.APIPrefix == "" {
		http.NotFound(w, r)
		return
	}
	if !ri.IsResourceRequest {
		h.discovery.ServeHTTP(w, r)
		return
	}
	// A group version the built-in registry serves is its alone: like
	// Kubernetes' director, which hands a path under a built-in web
	// service's root to that service (a 404 there) and only the others to
	// the apiextensions server, a CRD that adds a plural to a built-in
	// group version is not served.
	builtinGV := h.groupVersions[ri.APIGroup+"/"+ri.APIVersion]
	if h.delegate != nil && !builtinGV && h.delegate.Serves(ri.APIGroup, ri.APIVersion, ri.Resource) {
		h.delegate.ServeHTTP(w, r)
		return
	}
	re, ok := h.resources[ri.APIGroup+"/"+ri.Resource]
	if !builtinGV {
		http.NotFound(w, r)
		return
	}
	if !ok || (ri.Namespace != "" && !re.info.Namespaced && ri.Resource != "namespaces") {
		responsewriters.WriteStatus(w, notFoundResource())
		return
	}
	start := time.Now()
	rec := metrics.NewResponseWriterDelegator(w)
	defer func() {
		h.metrics.Observe(ri.Verb, re.info.Resource, ri.Subresource, rec.Status(), time.Since(start))
	}()
	re.serve(rec, r, ri)
}

// serve picks the handler of the request's subresource and verb.
func (re *resourceEndpoints) serve(w http.ResponseWriter, r *http.Request, ri *request.RequestInfo) {
	info := re.info
	if info.Namespaced && ri.Namespace == "" && ri.Name != "" {
		// pods/<name> without a namespace names nothing.
		responsewriters.WriteStatus(w, notFoundResource())
		return
	}
	verbs, ok := re.handlers[ri.Subresource]
	if !ok {
		responsewriters.WriteStatus(w, notFoundResource())
		return
	}
	if ri.Subresource != "" {
		h, ok := verbs[ri.Verb]
		if !ok {
			responsewriters.WriteStatus(w, methodNotAllowed())
			return
		}
		h.ServeHTTP(w, r)
		return
	}
	// A write to a collection must be a POST, and a POST must be to a
	// collection (of a namespace, for namespaced resources).
	switch {
	case ri.Verb == "create" && (ri.Name != "" || (info.Namespaced && ri.Namespace == "")):
		responsewriters.WriteStatus(w, api.NewMethodNotSupported(info.GroupResource(), "POST"))
		return
	case ri.Verb == "update" && ri.Name == "":
		responsewriters.WriteStatus(w, api.NewMethodNotSupported(info.GroupResource(), "PUT"))
		return
	case ri.Verb == "patch" && ri.Name == "":
		responsewriters.WriteStatus(w, api.NewMethodNotSupported(info.GroupResource(), "PATCH"))
		return
	}
	h, ok := verbs[ri.Verb]
	if !ok {
		responsewriters.WriteStatus(w, api.NewMethodNotSupported(info.GroupResource(), r.Method))
		return
	}
	h.ServeHTTP(w, r)
}

// methodNotAllowed is the 405 for a verb a subresource does not serve
// (a PATCH or apply of pods/NAME/binding, which only takes a POST).
// Kubernetes has no route for it, and go-restful's 405 becomes this
// generic Status (server/handler.go serviceErrorHandler,
// apimachinery errors.NewGenericServerResponse).
func methodNotAllowed() *api.StatusError {
	return genericStatus(http.StatusMethodNotAllowed, api.StatusReasonMethodNotAllowed,
		"the server does not allow this method on the requested resource")
}

// NotFoundResource is notFoundResource for the custom resource handler,
// which answers the same for a served group version without the resource.
func NotFoundResource() *api.StatusError { return notFoundResource() }

// notFoundResource is the 404 for a URL under a known group that names no
// resource kubeloop serves. Kubernetes answers it with an empty-details
// Status.
func notFoundResource() *api.StatusError {
	return genericStatus(http.StatusNotFound, api.StatusReasonNotFound, "the server could not find the requested resource")
}

// genericStatus is a Status with empty details, as Kubernetes writes for
// requests that reach no handler (apimachinery errors.NewGenericServerResponse).
func genericStatus(code int32, reason api.StatusReason, message string) *api.StatusError {
	return &api.StatusError{ErrStatus: api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure, Message: message, Reason: reason, Details: &api.StatusDetails{}, Code: code,
	}}
}
