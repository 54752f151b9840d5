// Package endpoints installs the HTTP API: for every resource and
// subresource, one generic handler per verb its REST storage implements,
// and the routing of each request under /api and /apis to one of them.
//
// Where it sits on the spine: below the filters, above the handlers. A
// request's RequestInfo (package request) names the group, resource,
// subresource and verb; APIHandler.ServeHTTP finds the handler, which was
// made at start by registerResourceHandlers from the storage's interfaces
// (a rest.Getter gets GET, a rest.Creater POST, ...). So a new kind needs
// no change here: its registry entry is enough. Requests that name no
// resource go to discovery.
//
// Kubernetes counterpart (v1.37.2):
// staging/src/k8s.io/apiserver/pkg/endpoints/installer.go
// (APIInstaller.Install, registerResourceHandlers) and groupversion.go
// (APIGroupVersion.InstallREST).
//
// What we simplify: no go-restful (a map lookup per request instead of a
// route table), one version per group, and no proxy, connect (exec, log,
// attach, portforward) or legacy /api/v1/watch/... routes beyond the verb.
package endpoints
