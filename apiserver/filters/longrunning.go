package filters

import (
	"strings"

	"kubeloop/apiserver/endpoints/request"
)

// The verbs and subresources whose requests last as long as the client
// wants: a watch, a proxied connection, exec, attach, port-forward, a
// followed log. Kubernetes: cmd/kube-apiserver/app/server.go passes these
// sets to genericfilters.BasicLongRunningRequestCheck.
var (
	longRunningVerbs        = map[string]bool{"watch": true, "proxy": true}
	longRunningSubresources = map[string]bool{"attach": true, "exec": true, "proxy": true, "log": true, "portforward": true}
)

// IsLongRunning says whether a request may stay open indefinitely, so
// that the in-flight limit neither counts nor refuses it: a slot held for
// minutes by one stream would starve the short requests the limit is
// for. Beyond Kubernetes' verbs and subresources, the non-resource
// streams are long-running: /debug/pprof/ (as in Kubernetes) and
// kubeloop's /debug/trace, which streams for as long as its client stays.
// Kubernetes: staging/src/k8s.io/apiserver/pkg/server/filters/
// longrunning.go (BasicLongRunningRequestCheck).
func IsLongRunning(info *request.RequestInfo) bool {
	if longRunningVerbs[info.Verb] {
		return true
	}
	if info.IsResourceRequest {
		// A proxied path rides behind its subresource (nodes/n1/proxy/metrics).
		sub, _, _ := strings.Cut(info.Subresource, "/")
		return longRunningSubresources[sub]
	}
	return strings.HasPrefix(info.Path, "/debug/pprof/") || info.Path == "/debug/trace"
}
