package request

import "context"

// The request-scoped values the layers below the filters read. Kubernetes
// keeps the same two in staging/src/k8s.io/apiserver/pkg/endpoints/request/
// context.go (WithNamespace, NamespaceValue) and requestinfo.go
// (WithRequestInfo, RequestInfoFrom).

type contextKey int

const (
	requestInfoKey contextKey = iota
	namespaceKey
)

// WithRequestInfo returns a copy of ctx carrying info.
func WithRequestInfo(ctx context.Context, info *RequestInfo) context.Context {
	return context.WithValue(ctx, requestInfoKey, info)
}

// RequestInfoFrom returns the RequestInfo the filter chain stored, if any.
func RequestInfoFrom(ctx context.Context) (*RequestInfo, bool) {
	info, ok := ctx.Value(requestInfoKey).(*RequestInfo)
	return info, ok
}

// WithNamespace returns a copy of ctx naming the namespace a registry call
// works in ("" for cluster-scoped resources and for every namespace).
func WithNamespace(ctx context.Context, namespace string) context.Context {
	return context.WithValue(ctx, namespaceKey, namespace)
}

// NamespaceValue is the namespace WithNamespace stored, or "".
func NamespaceValue(ctx context.Context) string {
	ns, _ := ctx.Value(namespaceKey).(string)
	return ns
}
