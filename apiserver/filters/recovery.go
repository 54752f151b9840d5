package filters

import (
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
)

// WithPanicRecovery turns a panicking handler into a 500 Status (if nothing
// was written yet) and a log line with the stack; the server keeps serving.
// http.ErrAbortHandler is re-raised: it is how a handler asks net/http to
// drop the connection. Kubernetes: staging/src/k8s.io/apiserver/pkg/server/
// filters/wrap.go (WithPanicRecovery).
func WithPanicRecovery(next http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &headerRecorder{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				log.Error("panic in handler", "method", r.Method, "path", r.URL.Path,
					"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if !rec.wroteHeader {
					responsewriters.WriteStatus(rec, api.NewInternalError(fmt.Errorf("panic: %v", p)))
				}
			}
		}()
		next.ServeHTTP(rec, r)
	})
}

// headerRecorder remembers whether the header is out: after it, a 500 can
// no longer be sent. Unwrap lets http.ResponseController reach the real
// writer to flush a watch.
type headerRecorder struct {
	http.ResponseWriter
	wroteHeader bool
}

func (r *headerRecorder) WriteHeader(code int) {
	r.wroteHeader = true
	r.ResponseWriter.WriteHeader(code)
}

func (r *headerRecorder) Write(b []byte) (int, error) {
	r.wroteHeader = true
	return r.ResponseWriter.Write(b)
}

func (r *headerRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
