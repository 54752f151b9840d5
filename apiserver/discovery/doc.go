// Package discovery serves the documents clients read to learn which API
// groups, versions and resources the server has: the legacy ones
// (/api → APIVersions, /apis → APIGroupList, /api/v1 and /apis/<g>/<v> →
// APIResourceList) and aggregated discovery v2 (everything in one answer
// from /api and /apis) when the Accept header asks for it.
//
// Where it sits: off the reading path, beside the endpoint handlers — the
// installer hands it every request under /api and /apis that names no
// resource. It is read from the api registry, so a new kind is discovered
// without a change here; kubectl needs it for short names (`get po`),
// categories (`get all`) and the scale subresource.
//
// Kubernetes counterparts (v1.37.2):
// staging/src/k8s.io/apiserver/pkg/endpoints/discovery (legacy.go,
// group.go, version.go: APIVersionHandler, APIGroupHandler) and
// staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated/handler.go
// (ResourceManager, serveHTTP), with the types of
// staging/src/k8s.io/api/apidiscovery/v2/types.go.
//
// What we simplify: one version per group; the documents are rebuilt per
// request rather than cached with an ETag; no protobuf encoding of the
// aggregated document.
package discovery
