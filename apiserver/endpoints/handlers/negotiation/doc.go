// Package negotiation decides, for one request, which serializer reads its
// body (by Content-Type) and which writes its answer (by Accept), and
// whether the answer is converted to a meta.k8s.io Table first.
//
// Where it sits on the spine: every endpoint handler calls it before it
// decodes or encodes anything; it only chooses among
// serializer.SupportedMediaTypes and never encodes itself. So a new media
// type needs no change here, only a new SerializerInfo.
//
// Kubernetes counterpart (v1.37.2):
// staging/src/k8s.io/apiserver/pkg/endpoints/handlers/negotiation/negotiate.go
// (NegotiateInputSerializer, NegotiateOutputMediaType).
//
// What we simplify: no q-values (clauses are taken in the order written,
// which is how kubectl and client-go order them), no 406 (an Accept header
// naming nothing we write gets JSON), and of Kubernetes' conversions only
// Table is offered (not PartialObjectMetadata, which is answered as the
// plain object).
package negotiation
