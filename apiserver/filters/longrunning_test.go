package filters_test

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"

	"kubeloop/apiserver/endpoints/request"
	"kubeloop/apiserver/filters"
)

func isLongRunning(method, target string) bool {
	return filters.IsLongRunning(request.NewRequestInfo(httptest.NewRequest(method, target, nil)))
}

// Kubernetes' long-running verbs and subresources, and the debug streams.
func TestIsLongRunning(t *testing.T) {
	for _, tc := range []struct {
		method, target string
		want           bool
	}{
		{"GET", "/api/v1/namespaces/ns/pods?watch=true", true},
		{"GET", "/api/v1/watch/namespaces/ns/pods", true},
		{"GET", "/api/v1/namespaces/ns/pods/p/log", true},
		{"POST", "/api/v1/namespaces/ns/pods/p/exec", true},
		{"POST", "/api/v1/namespaces/ns/pods/p/attach", true},
		{"POST", "/api/v1/namespaces/ns/pods/p/portforward", true},
		{"GET", "/api/v1/nodes/n1/proxy/metrics", true},
		{"GET", "/debug/trace?kind=ReplicaSet", true},
		{"GET", "/debug/pprof/profile", true},
		{"GET", "/api/v1/namespaces/ns/pods", false},
		{"GET", "/api/v1/namespaces/ns/pods/p", false},
		{"PUT", "/api/v1/namespaces/ns/pods/p/status", false},
		{"GET", "/healthz", false},
		{"GET", "/debug/traceX", false},
	} {
		assert.Equal(t, tc.want, isLongRunning(tc.method, tc.target), "%s %s", tc.method, tc.target)
	}
}
