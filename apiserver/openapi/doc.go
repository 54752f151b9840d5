// Package openapi serves /openapi/v3: an index of group-versions and one
// OpenAPI document per group-version. Its one entry point is New, whose
// Handler the apiserver mounts at /openapi/v3.
//
// Where it sits: off the reading path. kubectl reads these documents before
// create and apply to decide whether it may leave field validation to the
// server; nothing in the server reads them.
//
// Kubernetes counterparts (v1.37.2):
// staging/src/k8s.io/apiserver/pkg/endpoints/openapi (the document per
// group-version built from the installed routes) and
// staging/src/k8s.io/kube-openapi/pkg/handler3 (the index with content
// hashes, OpenAPIService.HandleDiscovery, HandleGroupVersion).
//
// What we simplify: the documents carry paths and parameters but no
// schemas (so `kubectl explain` has nothing to show), and there is no
// /openapi/v2.
package openapi
