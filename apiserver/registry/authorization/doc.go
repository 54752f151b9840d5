// Package authorization serves the access reviews of
// authorization.k8s.io/v1: SelfSubjectAccessReview (may I?),
// SubjectAccessReview (may they?) and SelfSubjectRulesReview (what may I
// do here?). A review is created, answered in its status and forgotten:
// nothing is stored. `kubectl auth can-i` sends the self reviews, `--list`
// the rules review.
//
// Where it sits on the spine: create-only REST storages
// (/apis/authorization.k8s.io/v1/<review>s), installed, discovered and
// described in OpenAPI like every other resource, behind the filters (creating a review is itself authorized: the
// bootstrap role system:basic-user grants the self reviews to every
// authenticated user). It asks the apiserver's authorizer, and RBAC's rule
// resolver for the rules review.
//
// Kubernetes counterparts (v1.37.2): pkg/registry/authorization/
// selfsubjectaccessreview/rest.go, subjectaccessreview/rest.go,
// selfsubjectrulesreview/rest.go (REST.Create), util/helpers.go
// (ResourceAttributesFrom, NonResourceAttributesFrom) and
// pkg/apis/authorization/validation/validation.go.
//
// What we simplify: no LocalSubjectAccessReview; field and label
// selectors are ignored; the answer records no managedFields (nothing is
// stored).
package authorization
