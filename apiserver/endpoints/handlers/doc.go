// Package handlers holds the generic endpoint handlers: one per verb —
// GetResource, ListResource, WatchResource, CreateResource, UpdateResource,
// PatchResource, DeleteResource, DeleteCollection — each made from a REST
// storage interface (package registry/rest) and a RequestScope. None of
// them knows a kind: the scope says which resource and kind the endpoint
// serves, the storage does the rest.
//
// Where it sits on the spine: below the installer (package endpoints),
// above the registry. A create travels through CreateResource as
//
//	negotiate the Content-Type → decode with fieldValidation → check the
//	body against the URL → mutating admission → rest.Creater.Create (with
//	validating admission for the registry to call last) → answer 201
//
// and an update or patch hands the registry an UpdatedObjectInfo (the body,
// or the patch applied to whatever is stored) so that the read-modify-write
// happens in the registry, retried on conflict. Content negotiation is
// package negotiation, answers and errors package responsewriters.
//
// Kubernetes counterparts (v1.37.2):
// staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go
// (RequestScope), get.go (GetResource, ListResource), watch.go
// (serveWatch, WatchServer.HandleHTTP), create.go (createHandler),
// update.go (UpdateResource), patch.go (PatchResource,
// patcher.patchResource), delete.go (DeleteResource, DeleteCollection).
//
// Every write takes dryRun=All (dryrun.go reads and checks it) and hands it
// to the registry, which stores nothing for it.
//
// Every write to an object or its status records its writer in
// metadata.managedFields through the scope's FieldManager
// (managedfields.go, after mutating admission, whose defaulting stands for
// Kubernetes' decode-time defaulting); a PATCH with
// application/apply-patch+yaml is a server-side apply (apply.go): the
// field manager merges the configuration into the stored object inside the
// registry's read-modify-write, and a missing object is created.
//
// What we simplify: no request timeouts or audit; no apply to scale or
// binding; patches are decoded as JSON whatever the object's wire format.
// watch_shared.go is a speed-up: skip it on a first reading.
package handlers
