package apiserver

import (
	"encoding/json"
	"net/http"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
	"kubeloop/trace"
)

// traceBuffer is how many events a slow reader may fall behind by before
// the stream loses some (a scale to 5 is about two hundred).
const traceBuffer = 1 << 14

// serveTrace streams the spine of this process as JSON lines, one
// trace.Event each, for as long as the client stays: connecting switches
// the trace on, the last client leaving switches it off. With kind,
// resource, namespace and name it sends only that object's events and
// those of the objects it controls (`kubectl-lite trace rs web`). The
// components report only when they run in this process (`kubeloop up`);
// an apiserver on its own reports its own hops and etcd's.
// Kubernetes has no such endpoint; its nearest kin is /debug/pprof.
func (s *Server) serveTrace(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		responsewriters.WriteStatus(w, api.NewMethodNotSupported(api.GroupResource{}, r.Method))
		return
	}
	q := r.URL.Query()
	var filter func(*trace.Event) bool
	switch kind, resource, ns, name := q.Get("kind"), q.Get("resource"), q.Get("namespace"), q.Get("name"); {
	case kind == "" && resource == "" && ns == "" && name == "":
	case kind == "" || resource == "" || name == "":
		responsewriters.WriteStatus(w, api.NewBadRequest("trace: kind, resource and name go together (namespace too for a namespaced object)"))
		return
	default:
		filter = trace.NewRelated(kind, resource, ns, name).Match
	}
	flusher := http.NewResponseController(w)
	sub := trace.Subscribe(traceBuffer, filter)
	defer sub.Close()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_ = flusher.Flush()
	enc := json.NewEncoder(w)
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		case e := <-sub.C:
			if err := enc.Encode(e); err != nil {
				return
			}
			if err := flusher.Flush(); err != nil {
				return
			}
		}
	}
}
