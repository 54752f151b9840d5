// Package strategicpatch applies Kubernetes strategic merge patches
// (Content-Type application/strategic-merge-patch+json) to the JSON of an
// object. It is what makes client-side `kubectl apply` work: kubectl diffs
// the last applied manifest, the new one and the live object, and sends the
// difference as a strategic merge patch.
//
// Where it sits on the spine: the apiserver's PATCH handler (patch.go)
// calls Apply inside the read-modify-write of an update, with the Schema of
// the kind being patched.
//
// A strategic merge patch is a JSON merge patch (RFC 7386) that knows the
// shape of the object: a list with a merge key (containers by name, ports
// by containerPort, conditions by type) is merged element by element instead
// of being replaced, a primitive list with the merge strategy (finalizers) is
// unioned, and directives say what plain JSON cannot:
//
//	{"$patch": "replace"}           replace this map (or list) instead of merging
//	{"$patch": "delete", "name": x}  remove the list element with that key
//	"$setElementOrder/containers"   the order the list should end up in
//	"$retainKeys": [...]            drop every other key of this map
//	"$deleteFromPrimitiveList/f"    remove these values from primitive list f
//	"field": null                   remove the field
//
// Kubernetes counterpart (kubernetes v1.37.2):
// staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go
// (StrategicMergePatch, mergeMap, mergeSlice, mergePatchIntoOriginal,
// normalizeElementOrder, mergeSortedSlice, applyRetainKeysDirective); the
// merge keys come from the patchMergeKey/patchStrategy struct tags in
// staging/src/k8s.io/api/core/v1/types.go and friends, read by reflection
// (meta.go, PatchMetaFromStruct).
//
// The schema (schema.go) is read the same way, from the patchStrategy and
// patchMergeKey struct tags of the api types, once per kind. Those tags are
// also where the OpenAPI schemas' x-kubernetes-patch-strategy and
// x-kubernetes-patch-merge-key come from (apiserver/openapi/spec), so the
// patches kubectl computes from OpenAPI and the merge applied here follow
// one table.
//
// What we simplify: only the server side (applying a patch) is implemented,
// not the client side (computing one); lists of lists are replaced; a map
// of objects merges key by key but knows nothing of its values' lists. A
// merge key must be a string, a number, a boolean or null; a patch element
// whose merge key is an object or a list is refused (422), where
// Kubernetes, comparing keys with ==, would panic. Elements are found by
// their merge key through index maps (positions.go), not by scanning the
// list as Kubernetes does, so a patch of n list elements costs about n
// steps instead of n².
package strategicpatch
