package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
	"kubeloop/apiserver/endpoints/metrics"
	"kubeloop/apiserver/endpoints/request"
	"kubeloop/apiserver/fieldmanager"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/apiserver/serializer"
)

// RequestScope is everything the generic handlers know about the endpoint
// they serve: which resource, which kind of object goes in and out, how to
// encode it, and the admission chain. The handlers know nothing else about
// the kind; the installer builds one scope per resource and subresource.
// Kubernetes: endpoints/handlers/rest.go (RequestScope).
type RequestScope struct {
	// Resource is the resource the URL names (for a subresource, its
	// parent): names in messages, field selectors, admission.
	Resource *api.ResourceInfo
	// Subresource is "" or "status", "scale", "binding".
	Subresource string
	// Kind is the kind of the objects read and written here: the
	// resource's own, or Scale, Binding.
	Kind api.KindInfo
	// Serializers are the media types spoken (serializer.SupportedMediaTypes).
	Serializers []serializer.SerializerInfo
	// Admission is the chain: the handler runs its mutating phase and
	// hands its validating phase to the registry.
	Admission admission.Interface
	// TableConvertor renders Tables; nil where Tables are not offered
	// (subresources).
	TableConvertor rest.TableConvertor
	// FieldManager keeps managedFields for writes here; nil where writes
	// are not tracked (scale, binding).
	FieldManager *fieldmanager.FieldManager
	Logger       *slog.Logger
	Metrics      *metrics.Metrics
	// StopContext ends every watch when the server stops, also when the
	// handler is mounted somewhere other than Serve.
	StopContext context.Context
}

// requestInfo is the request's RequestInfo (set by filters.WithRequestInfo,
// or parsed here for handlers mounted without the chain) and a context that
// carries its namespace for the registry.
func (scope *RequestScope) requestInfo(req *http.Request) (*request.RequestInfo, context.Context) {
	ri, ok := request.RequestInfoFrom(req.Context())
	if !ok {
		ri = request.NewRequestInfo(req)
	}
	return ri, request.WithNamespace(req.Context(), ri.Namespace)
}

// query is the request's query parameters. Most requests have none, and
// URL.Query would make an empty map for every parameter a handler reads.
func query(req *http.Request) url.Values {
	if req.URL.RawQuery == "" {
		return nil
	}
	return req.URL.Query()
}

// err answers err as a Status.
func (scope *RequestScope) err(w http.ResponseWriter, req *http.Request, err error) {
	responsewriters.ErrorNegotiated(w, req, scope.Serializers, err)
}

// writeObject answers obj with its kind and apiVersion.
func (scope *RequestScope) writeObject(w http.ResponseWriter, req *http.Request, code int, obj api.Object) {
	responsewriters.WriteObjectNegotiated(w, req, scope.Serializers, code, rest.WithTypeMeta(scope.Kind, obj))
}

// attributes are the admission attributes of a write to this endpoint.
func (scope *RequestScope) attributes(op admission.Operation, ri *request.RequestInfo) admission.Attributes {
	return admission.Attributes{
		Operation: op, Resource: scope.Resource, Subresource: scope.Subresource,
		Namespace: ri.Namespace, Name: ri.Name,
	}
}

// verb is the verb as logged: "update/status".
func (scope *RequestScope) verb(verb string) string {
	if scope.Subresource != "" {
		return verb + "/" + scope.Subresource
	}
	return verb
}

// logWrite is the one log line per write: verb, resource, key, the new
// resourceVersion and the outcome; a dry run says so.
//
// It names the user too, as an audit log would (Kubernetes' audit events
// carry user.username): that is how one tells which identity wrote what.
// With Info off nothing is computed: the key, the status code of an error
// and the arguments' interfaces would be built for a line nobody reads.
func (scope *RequestScope) logWrite(ctx context.Context, verb string, code int, dryRun []string, in, out api.Object, err error) {
	if !scope.Logger.Enabled(ctx, slog.LevelInfo) {
		return
	}
	key := ""
	if in != nil {
		key, _ = api.MetaNamespaceKeyFunc(in)
	}
	rv := ""
	if out != nil {
		if _, isStatus := out.(*api.Status); !isStatus {
			rv = out.GetObjectMeta().ResourceVersion
			key, _ = api.MetaNamespaceKeyFunc(out)
		}
	}
	if err != nil {
		code = int(responsewriters.ErrorToAPIStatus(err).Code)
	}
	who := ""
	if u, ok := user.From(ctx); ok {
		who = u.Name
	}
	if rest.IsDryRun(dryRun) {
		scope.Logger.Info("write", "verb", scope.verb(verb), "resource", scope.Resource.GroupResource().String(), "key", key, "code", code, "user", who, "dryRun", true)
		return
	}
	scope.Logger.Info("write", "verb", scope.verb(verb), "resource", scope.Resource.GroupResource().String(), "key", key, "rv", rv, "code", code, "user", who)
}

// checkTypeMeta refuses a body of another kind and fills in a missing
// apiVersion and kind (kubeloop's own clients may leave them out).
func checkTypeMeta(k api.KindInfo, obj api.Object) error {
	tm := obj.GetTypeMeta()
	if tm.Kind != "" && tm.Kind != k.Kind {
		return api.NewBadRequest(fmt.Sprintf("the kind of the object (%s) does not match the kind of the URL (%s)", tm.Kind, k.Kind))
	}
	if tm.APIVersion != "" && tm.APIVersion != k.GroupVersion() {
		return api.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", tm.APIVersion, k.GroupVersion()))
	}
	tm.Kind, tm.APIVersion = k.Kind, k.GroupVersion()
	return nil
}

// checkURLMeta makes the body agree with the URL: a missing namespace is
// taken from the URL, a different one is 400, as is a different name.
func (scope *RequestScope) checkURLMeta(ri *request.RequestInfo, obj api.Object) error {
	m := obj.GetObjectMeta()
	if scope.Resource.Namespaced {
		if m.Namespace == "" {
			m.Namespace = ri.Namespace
		} else if m.Namespace != ri.Namespace {
			return api.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
		}
	} else {
		m.Namespace = ""
	}
	if ri.Name != "" && m.Name != ri.Name {
		if m.Name == "" {
			m.Name = ri.Name
			return nil
		}
		return api.NewBadRequest("the name of the object (" + m.Name + ") does not match the name on the URL (" + ri.Name + ")")
	}
	return nil
}

// setWarnings adds one Warning header per problem, in RFC 7234 form with
// code 299, as Kubernetes does.
func setWarnings(w http.ResponseWriter, problems []string) {
	for _, p := range problems {
		w.Header().Add("Warning", fmt.Sprintf("299 - %s", quoteWarning(p)))
	}
}

// quoteWarning makes s a quoted-string. Control characters (a YAML
// error's newlines) become spaces: a header value may not hold them, and
// HTTP/2 drops a header that does.
func quoteWarning(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

// jsonSerializer is the JSON entry of the scope's serializers: what a body
// in a media type nobody reads is taken to be, where clients are known to
// send JSON without saying so.
func (scope *RequestScope) jsonSerializer() serializer.SerializerInfo {
	for _, si := range scope.Serializers {
		if si.MediaType == serializer.ContentTypeJSON {
			return si
		}
	}
	return serializer.SupportedMediaTypes()[0]
}
