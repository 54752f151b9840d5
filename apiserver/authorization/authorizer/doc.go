// Package authorizer is the question authorization answers — may this user
// do this verb on this resource? — as an interface, so that the filters
// that ask it (authorization, impersonation) and the answerers (RBAC, the
// Node authorizer, a union of them) do not import each other.
//
// Where it sits on the spine: the filters build Attributes from the
// request's user (package user) and RequestInfo and call Authorize; an
// authorizer returns Allow, Deny or NoOpinion with a reason.
//
// Kubernetes: staging/src/k8s.io/apiserver/pkg/authorization/authorizer/
// interfaces.go at v1.37.2 (Authorizer, Attributes, AttributesRecord,
// Decision) and authorizerfactory/builtin.go (NewAlwaysAllowAuthorizer).
//
// What we simplify: Attributes is a plain struct (Kubernetes' interface
// has one implementation, AttributesRecord, in practice); no field or
// label selector requirements.
package authorizer
