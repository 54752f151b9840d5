package apiserver

import (
	"fmt"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"kubeloop/api"
	"kubeloop/store"
)

// scope is everything a resource handler needs about one request.
type scope struct {
	ri      *requestInfo
	info    *api.ResourceInfo
	storage store.Interface
}

// key is the etcd key of the object the URL names.
func (sc *scope) key() string { return sc.info.Key(sc.ri.Namespace, sc.ri.Name) }

// prefix is the etcd prefix of the collection the URL names: one namespace,
// or every namespace.
func (sc *scope) prefix() string {
	if sc.info.Namespaced && sc.ri.Namespace != "" {
		return sc.info.KeyPrefix() + sc.ri.Namespace + "/"
	}
	return sc.info.KeyPrefix()
}

func (s *Server) buildHandler(reg *prometheus.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", s.serveHealth)
	mux.HandleFunc("/livez", s.serveHealth)
	mux.HandleFunc("/readyz", s.serveReady)
	mux.HandleFunc("/version", s.serveVersion)
	mux.HandleFunc("/openapi/v3", s.serveOpenAPIV3)
	mux.HandleFunc("/openapi/v3/", s.serveOpenAPIV3)
	mux.HandleFunc("/", s.serveAPI)
	return s.withRecovery(mux)
}

// withRecovery turns a panicking handler into a 500 Status and a log line
// with the stack; the server keeps serving. Kubernetes does this in
// staging/src/k8s.io/apiserver/pkg/server/filters/wrap.go (WithPanicRecovery).
func (s *Server) withRecovery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("panic in handler", "method", r.Method, "path", r.URL.Path,
					"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if !rec.wroteHeader {
					writeStatus(rec, api.NewInternalError(fmt.Errorf("panic: %v", p)))
				}
			}
		}()
		next.ServeHTTP(rec, r)
	})
}

// statusRecorder remembers the response code for metrics and logs.
// Unwrap lets http.ResponseController reach the real writer to flush.
type statusRecorder struct {
	http.ResponseWriter
	code        int
	wroteHeader bool
}

func (r *statusRecorder) WriteHeader(code int) {
	if !r.wroteHeader {
		r.code, r.wroteHeader = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if !r.wroteHeader {
		r.code, r.wroteHeader = http.StatusOK, true
	}
	return r.ResponseWriter.Write(b)
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// serveAPI routes everything under /api and /apis.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	ri := parseRequestInfo(r)
	if ri.APIPrefix == "" {
		http.NotFound(w, r)
		return
	}
	if !ri.IsResourceRequest {
		s.serveDiscovery(w, r, ri)
		return
	}
	if !groupServed(s.reg, ri.APIGroup, ri.APIVersion) {
		http.NotFound(w, r)
		return
	}
	info, ok := s.reg.ForResource(ri.APIGroup, ri.Resource)
	if !ok || (ri.Namespace != "" && !info.Namespaced && ri.Resource != "namespaces") {
		writeStatus(w, notFoundResource())
		return
	}
	start := time.Now()
	defer s.metrics.begin(ri.Verb)()
	rec, _ := w.(*statusRecorder)
	defer func() {
		code := http.StatusOK
		if rec != nil && rec.code != 0 {
			code = rec.code
		}
		s.metrics.observe(ri.Verb, info.Resource, ri.Subresource, code, time.Since(start))
	}()
	if r.URL.Query().Has("dryRun") && ri.Verb != "get" && ri.Verb != "list" && ri.Verb != "watch" {
		// Better to refuse than to write what the client asked only to try.
		writeStatus(w, api.NewBadRequest("dryRun is not supported by kubeloop"))
		return
	}
	sc := &scope{ri: ri, info: info, storage: s.storageFor(info)}
	s.serveResource(w, r, sc)
}

// serveResource dispatches on subresource and verb.
func (s *Server) serveResource(w http.ResponseWriter, r *http.Request, sc *scope) {
	ri := sc.ri
	if sc.info.Namespaced && ri.Namespace == "" && ri.Name != "" {
		// pods/<name> without a namespace names nothing.
		writeStatus(w, notFoundResource())
		return
	}
	switch ri.Subresource {
	case "":
		s.serveMain(w, r, sc)
	case "status":
		if !sc.info.HasStatus {
			writeStatus(w, notFoundResource())
			return
		}
		switch ri.Verb {
		case "get":
			s.get(w, r, sc)
		case "update":
			s.update(w, r, sc)
		case "patch":
			s.patch(w, r, sc)
		default:
			writeStatus(w, api.NewMethodNotSupported(sc.info.GroupResource(), ri.Verb))
		}
	case "scale":
		if !hasSubresource(sc.info, "scale") {
			writeStatus(w, notFoundResource())
			return
		}
		s.serveScale(w, r, sc)
	case "binding":
		if !hasSubresource(sc.info, "binding") {
			writeStatus(w, notFoundResource())
			return
		}
		if ri.Verb != "create" {
			writeStatus(w, api.NewMethodNotSupported(sc.info.GroupResource(), ri.Verb))
			return
		}
		s.bind(w, r, sc)
	default:
		writeStatus(w, notFoundResource())
	}
}

func (s *Server) serveMain(w http.ResponseWriter, r *http.Request, sc *scope) {
	ri := sc.ri
	switch ri.Verb {
	case "get":
		s.get(w, r, sc)
	case "list":
		s.list(w, r, sc)
	case "watch":
		s.watch(w, r, sc)
	case "create":
		if ri.Name != "" || (sc.info.Namespaced && ri.Namespace == "") {
			writeStatus(w, api.NewMethodNotSupported(sc.info.GroupResource(), "POST"))
			return
		}
		s.create(w, r, sc)
	case "update":
		s.update(w, r, sc)
	case "patch":
		s.patch(w, r, sc)
	case "delete":
		s.delete(w, r, sc)
	case "deletecollection":
		s.deleteCollection(w, r, sc)
	default:
		writeStatus(w, api.NewMethodNotSupported(sc.info.GroupResource(), r.Method))
	}
}

func hasSubresource(info *api.ResourceInfo, name string) bool {
	for _, sub := range info.Subresources {
		if sub == name {
			return true
		}
	}
	return false
}
