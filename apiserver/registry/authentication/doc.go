// Package authentication serves SelfSubjectReview of
// authentication.k8s.io/v1: "who am I?". A review is created and answered
// in its status with the caller's user as the filters left it — after
// impersonation, so `kubectl auth whoami --as bob` says bob. Nothing is
// stored.
//
// Where it sits on the spine: a create-only REST storage
// (/apis/authentication.k8s.io/v1/selfsubjectreviews), installed,
// discovered and described in OpenAPI like every other resource, behind
// the filters (creating a review is authorized like any request; the
// bootstrap role system:basic-user grants it to every authenticated user).
//
// Kubernetes: pkg/registry/authentication/selfsubjectreview/rest.go at
// v1.37.2 (REST.Create).
//
// What we simplify: no TokenReview; the answer records no managedFields.
package authentication
