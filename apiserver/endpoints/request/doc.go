// Package request reads what a request means before any handler runs: its
// RequestInfo (verb, API group and version, namespace, resource,
// subresource, name) and the namespace a registry call works in, both
// carried in the request's context.
//
// Where it sits on the spine: the filter chain parses the URL once
// (filters.WithRequestInfo calls NewRequestInfo); the endpoint installer
// routes on the result, the handlers read the name and namespace from it,
// and the registry reads the namespace with NamespaceValue. It imports no
// other layer, so every layer may import it.
//
// Kubernetes counterpart (v1.37.2):
// staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go
// (RequestInfoFactory.NewRequestInfo, WithRequestInfo, RequestInfoFrom) and
// context.go (WithNamespace, NamespaceValue).
//
// What we simplify: the API prefixes are fixed (/api and /apis), there is no
// RequestInfoFactory to configure, and the deeper paths Kubernetes reads
// (proxy, log, exec, the legacy /api/v1/watch/... forms beyond the verb)
// are parsed only far enough to be refused with 404.
package request
