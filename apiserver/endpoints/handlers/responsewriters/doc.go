// Package responsewriters writes the answers of the API: an object in the
// negotiated media type, or an error as a Kubernetes Status with the right
// HTTP code. Every error a client sees goes through ErrorToAPIStatus.
//
// Where it sits on the spine: at the end of every endpoint handler, and in
// the filters (a recovered panic is a 500 Status) and the compatibility
// endpoints (discovery, /version), which answer in JSON only.
//
// Kubernetes counterpart (v1.37.2):
// staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/
// writers.go (WriteObjectNegotiated, ErrorNegotiated, WriteRawJSON) and
// status.go (ErrorToAPIStatus).
//
// What we simplify: no gzip, no streaming of large lists (an answer is
// encoded whole, then written), and no deferred response writer.
package responsewriters
