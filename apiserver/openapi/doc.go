// Package openapi serves the API's OpenAPI documents: /openapi/v2, one
// Swagger 2.0 document for the whole API (JSON, or protobuf for client-go),
// and /openapi/v3, an index of group-versions and one OpenAPI 3.0 document
// per group-version. Its one entry point is New; the apiserver mounts the
// Handler at /openapi/v3 and its V2 at /openapi/v2.
//
// Where it sits: off the reading path; nothing in the server reads these
// documents. kubectl does: explain prints the schemas (descriptions come
// from the api types' doc comments, through cmd/openapi-gen's table),
// create and apply find the fieldValidation parameter on each kind's PATCH
// and leave validation to the server, and apply computes strategic merge
// patches from the schemas' x-kubernetes-patch-* extensions, which come
// from the same struct tags apiserver/strategicpatch merges by.
//
// The files: paths.go describes every path and operation of a resource
// (operationIds, query parameters, bodies) once; render.go writes that
// description as Swagger 2.0 and as OpenAPI 3.0; documents.go assembles the
// documents with the schemas of apiserver/openapi/spec, each v3 document
// holding exactly the definitions its paths reach; openapi.go serves them
// (content negotiation, ETags, the v3 index's content hashes);
// apiserver/openapi/swaggerpb encodes the v2 protobuf.
//
// Kubernetes counterparts (v1.37.2):
// staging/src/k8s.io/apiserver/pkg/endpoints/installer.go
// (registerResourceHandlers: the routes, their parameters and
// operationIds), staging/src/k8s.io/apiserver/pkg/endpoints/openapi
// (the document per group-version), k8s.io/kube-openapi/pkg/builder and
// builder3 (documents from routes and definitions), pkg/handler
// (/openapi/v2, RegisterOpenAPIVersionedService) and pkg/handler3
// (/openapi/v3, HandleDiscovery, HandleGroupVersion).
//
// What we simplify: documents are built once at start-up (the set of kinds
// is fixed); no watch paths (deprecated), no proxy, exec, log or eviction
// paths, no security definitions; v3 is served as JSON only (kubectl and
// client-go ask for nothing else); Accept is matched in our order, not by
// q-value; no gzip.
package openapi
