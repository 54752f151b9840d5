package metrics

import "net/http"

// ResponseWriterDelegator remembers the status code written, for the
// request metrics. Unwrap lets http.ResponseController reach the real
// writer to flush a watch. Kubernetes: endpoints/metrics/metrics.go
// (ResponseWriterDelegator).
type ResponseWriterDelegator struct {
	http.ResponseWriter
	code int
}

// NewResponseWriterDelegator wraps w.
func NewResponseWriterDelegator(w http.ResponseWriter) *ResponseWriterDelegator {
	return &ResponseWriterDelegator{ResponseWriter: w}
}

// WriteHeader records the first code.
func (d *ResponseWriterDelegator) WriteHeader(code int) {
	if d.code == 0 {
		d.code = code
	}
	d.ResponseWriter.WriteHeader(code)
}

func (d *ResponseWriterDelegator) Write(b []byte) (int, error) {
	if d.code == 0 {
		d.code = http.StatusOK
	}
	return d.ResponseWriter.Write(b)
}

// Status is the code written (200 if the handler wrote none).
func (d *ResponseWriterDelegator) Status() int {
	if d.code == 0 {
		return http.StatusOK
	}
	return d.code
}

// Unwrap is for http.ResponseController.
func (d *ResponseWriterDelegator) Unwrap() http.ResponseWriter { return d.ResponseWriter }
