// Skip on a first reading: the trace hooks (docs/trace.md), counted apart
// like the metrics. While the trace is off each returns at its first line.

package handlers

import (
	"context"
	"net/http"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/request"
	"kubeloop/trace"
)

// traceReceived reports a write arriving ("apiserver received") and returns
// ctx carrying its arrow of the spine, so that the storage write it causes
// is numbered too. obj is the decoded body (nil for a patch). Reads are
// never traced: a LIST or WATCH is not an arrow of the diagram.
func (scope *RequestScope) traceReceived(ctx context.Context, ri *request.RequestInfo, req *http.Request, obj api.Object) context.Context {
	if !trace.On() {
		return ctx
	}
	step := trace.RequestStep(ri.Verb, scope.Resource.Resource, scope.Subresource)
	resource := scope.Resource.Resource
	if scope.Subresource != "" {
		resource += "/" + scope.Subresource
	}
	e := trace.ObjectEvent(step, trace.APIServerReceived, "apiserver", scope.Resource.Resource, obj,
		req.Method+" "+resource+" from "+req.UserAgent())
	if e.Key == "" || ri.Name != "" {
		e.Key = ri.Namespace + "/" + ri.Name
	}
	if obj != nil && scope.Subresource != "" {
		// A Scale or Binding names the object but does not carry its owner
		// or version.
		e.Owner, e.ResourceVersion = "", ""
	}
	trace.Emit(e)
	return trace.WithStep(ctx, step)
}
