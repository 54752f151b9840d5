package openapi

import (
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/openapi/spec"
)

// pathItem is one URL template of the API and what can be done there, in a
// form both document versions render (v2.go, v3.go).
type pathItem struct {
	path       string
	parameters []parameter // of the path itself: {name}, {namespace}, pretty
	operations []operation
}

// operation is one HTTP method on a path, described as Kubernetes
// describes it: an operationId such as readCoreV1NamespacedPod, the
// x-kubernetes-action and -group-version-kind extensions kubectl looks
// for, its query parameters, and the definitions of its bodies.
type operation struct {
	method      string // get, put, post, patch, delete
	action      string // x-kubernetes-action
	id          string
	tag         string // the group-version: "core_v1"
	description string
	gvk         spec.GroupVersionKind
	parameters  []parameter
	request     string   // the request body's definition; "" for none
	consumes    []string // media types of the request body
	response    string   // the definition of the 200 answer
	codes       []string // the other success codes, answered with the same definition
	watch       bool     // a list, which also streams watch events
}

type parameter struct {
	name, in, typ, description string
	required                   bool
}

// The media types kube-apiserver speaks, in the order its documents list them.
var (
	objectTypes = []string{"application/json", "application/yaml", "application/vnd.kubernetes.protobuf"}
	watchTypes  = []string{"application/json;stream=watch", "application/vnd.kubernetes.protobuf;stream=watch"}
	patchTypes  = []string{"application/json-patch+json", "application/merge-patch+json", "application/strategic-merge-patch+json", "application/apply-patch+yaml"}
)

// The query parameters, as kube-apiserver declares them for each verb
// (staging/src/k8s.io/apiserver/pkg/endpoints/installer.go adds them from
// the fields of ListOptions, CreateOptions, PatchOptions, DeleteOptions).
var (
	listParameters = []parameter{
		query("allowWatchBookmarks", "boolean", "Ask a watch for BOOKMARK events, which carry only a resourceVersion."),
		query("continue", "string", "The token of the next page, from the metadata.continue of the previous one."),
		query("fieldSelector", "string", "Only objects whose fields match, e.g. spec.nodeName=node-1."),
		query("labelSelector", "string", "Only objects whose labels match, e.g. app=web,tier!=db."),
		query("limit", "integer", "At most this many objects; the answer's metadata.continue fetches the rest."),
		query("resourceVersion", "string", "Which revision to read from (with resourceVersionMatch), or to watch after."),
		query("resourceVersionMatch", "string", "How resourceVersion is applied: Exact or NotOlderThan."),
		query("sendInitialEvents", "boolean", "Start a watch with ADDED events for every existing object, then a bookmark."),
		query("timeoutSeconds", "integer", "End the request, a watch included, after this many seconds."),
		query("watch", "boolean", "Stream changes instead of answering a list."),
	}
	writeParameters = []parameter{
		query("dryRun", "string", "All: run every stage of the write but store nothing."),
		query("fieldManager", "string", "The name of the actor making the change, recorded in managedFields."),
		query("fieldValidation", "string", "What to do with unknown or duplicate fields in the body: Ignore, Warn (the default) or Strict (a 400)."),
	}
	patchParameters  = append(append([]parameter{}, writeParameters...), query("force", "boolean", "For apply patches: take over the fields other managers own."))
	deleteParameters = []parameter{
		query("dryRun", "string", "All: run every stage of the delete but remove nothing."),
		query("gracePeriodSeconds", "integer", "Seconds before the object is deleted; 0 deletes at once."),
		query("ignoreStoreReadErrorWithClusterBreakingPotential", "boolean", "Delete an object that cannot be decoded. Dangerous."),
		query("orphanDependents", "boolean", "Deprecated: use propagationPolicy=Orphan."),
		query("propagationPolicy", "string", "What happens to dependents: Orphan, Background or Foreground."),
	}
	prettyParameter = query("pretty", "string", "Indent the JSON answer.")
)

func query(name, typ, description string) parameter {
	return parameter{name: name, in: "query", typ: typ, description: description}
}

func pathParameter(name, description string) parameter {
	return parameter{name: name, in: "path", typ: "string", description: description, required: true}
}

// resourcePaths is every path of one resource: the collection, the
// object, its status, its other subresources and, for a namespaced
// resource, the list across all namespaces.
func resourcePaths(info *api.ResourceInfo) []pathItem {
	if info.NewList == nil {
		return createOnlyPaths(info)
	}
	return resourcePathsNamed(info, spec.NameOf(info.New()), spec.NameOf(info.NewList()))
}

// createOnlyPaths is the one path of a review: POST to its collection
// (createAuthorizationV1SelfSubjectAccessReview), as Kubernetes' installer
// describes a storage that is only a Creater.
func createOnlyPaths(info *api.ResourceInfo) []pathItem {
	gvk := spec.GroupVersionKind{Group: info.Group, Version: info.Version, Kind: info.Kind}
	kind := spec.NameOf(info.New())
	prefix, scope := "/"+groupVersionPath(info), ""
	params := []parameter{prettyParameter}
	if info.Namespaced {
		prefix, scope = prefix+"/namespaces/{namespace}", "Namespaced"
		params = append([]parameter{pathParameter("namespace", "The namespace of the object.")}, params...)
	}
	return []pathItem{{path: prefix + "/" + info.Resource, parameters: params, operations: []operation{
		{method: "post", action: "post", id: "create" + operationGroup(info) + scope + info.Kind, tag: tag(info),
			description: "create a " + info.Kind, gvk: gvk, parameters: writeParameters,
			request: kind, consumes: []string{"*/*"}, response: kind, codes: []string{"201", "202"}},
	}}}
}

// resourcePathsNamed is resourcePaths with the definition names of the
// object and its list given: a custom resource's are not its Go type's.
func resourcePathsNamed(info *api.ResourceInfo, kind, list string) []pathItem {
	gvk := spec.GroupVersionKind{Group: info.Group, Version: info.Version, Kind: info.Kind}
	scope := ""
	prefix := "/" + groupVersionPath(info)
	pathParams := []parameter{prettyParameter}
	if info.Namespaced {
		scope = "Namespaced"
		prefix += "/namespaces/{namespace}"
		pathParams = append([]parameter{pathParameter("namespace", "The namespace of the object.")}, pathParams...)
	}
	id := func(verb, suffix string) string { return verb + operationGroup(info) + scope + info.Kind + suffix }
	t := tag(info)
	nameParam := pathParameter("name", "The name of the "+info.Kind+".")
	objectParams := append([]parameter{nameParam}, pathParams...)
	collection := prefix + "/" + info.Resource
	deleteCollection := append(append([]parameter{}, listParameters...), deleteParameters...)

	items := []pathItem{
		{path: collection, parameters: pathParams, operations: []operation{
			{method: "get", action: "list", id: id("list", ""), description: "list or watch " + info.Kind + " objects", gvk: gvk, parameters: listParameters, response: list, watch: true},
			{method: "post", action: "post", id: id("create", ""), description: "create a " + info.Kind, gvk: gvk, parameters: writeParameters, request: kind, consumes: []string{"*/*"}, response: kind, codes: []string{"201", "202"}},
			{method: "delete", action: "deletecollection", id: "delete" + operationGroup(info) + "Collection" + scope + info.Kind, description: "delete a collection of " + info.Kind, gvk: gvk, parameters: deleteCollection, request: deleteOptionsName, consumes: []string{"*/*"}, response: statusName},
		}},
		{path: collection + "/{name}", parameters: objectParams, operations: objectOperations(gvk, kind, id, "", info.Kind)},
	}
	if info.HasStatus {
		items = append(items, pathItem{path: collection + "/{name}/status", parameters: objectParams,
			operations: subresourceOperations(gvk, kind, id, "Status", "status of the specified "+info.Kind)})
	}
	for _, sub := range info.Subresources {
		k, ok := api.SubresourceKind(sub)
		if !ok {
			continue
		}
		subGVK := spec.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}
		body := spec.DefinitionName(k.Kind)
		path := pathItem{path: collection + "/{name}/" + sub, parameters: objectParams}
		switch sub {
		case "binding":
			path.operations = []operation{{method: "post", action: "post", id: id("create", "Binding"), description: "bind a " + info.Kind + " to a node",
				gvk: subGVK, parameters: writeParameters, request: body, consumes: []string{"*/*"}, response: body, codes: []string{"201", "202"}}}
		case "scale":
			path.operations = subresourceOperations(subGVK, body, id, "Scale", "scale of the specified "+info.Kind)
		case "token":
			path.operations = []operation{{method: "post", action: "post", id: id("create", "Token"), description: "create token of a " + info.Kind,
				gvk: subGVK, parameters: writeParameters, request: body, consumes: []string{"*/*"}, response: body, codes: []string{"201", "202"}}}
		case "finalize":
			path.operations = []operation{{method: "put", action: "put", id: id("replace", "Finalize"), description: "replace finalize of the specified " + info.Kind,
				gvk: subGVK, parameters: writeParameters, request: body, consumes: []string{"*/*"}, response: body, codes: []string{"201"}}}
		}
		items = append(items, path)
	}
	if info.Namespaced {
		items = append(items, pathItem{path: "/" + groupVersionPath(info) + "/" + info.Resource, parameters: []parameter{prettyParameter}, operations: []operation{
			{method: "get", action: "list", id: "list" + operationGroup(info) + info.Kind + "ForAllNamespaces", description: "list or watch " + info.Kind + " objects in every namespace",
				gvk: gvk, parameters: listParameters, response: list, watch: true},
		}})
	}
	for i := range items {
		for j := range items[i].operations {
			items[i].operations[j].tag = t
		}
	}
	return items
}

// objectOperations are read, replace, patch and delete of one object.
func objectOperations(gvk spec.GroupVersionKind, kind string, id func(verb, suffix string) string, suffix, what string) []operation {
	ops := subresourceOperations(gvk, kind, id, suffix, "the specified "+what)
	return append(ops, operation{method: "delete", action: "delete", id: id("delete", suffix), description: "delete a " + what, gvk: gvk,
		parameters: deleteParameters, request: deleteOptionsName, consumes: []string{"*/*"}, response: kind, codes: []string{"202"}})
}

// subresourceOperations are read, replace and patch, the verbs of status
// and scale.
func subresourceOperations(gvk spec.GroupVersionKind, body string, id func(verb, suffix string) string, suffix, what string) []operation {
	return []operation{
		{method: "get", action: "get", id: id("read", suffix), description: "read " + what, gvk: gvk, response: body},
		{method: "put", action: "put", id: id("replace", suffix), description: "replace " + what, gvk: gvk,
			parameters: writeParameters, request: body, consumes: []string{"*/*"}, response: body, codes: []string{"201"}},
		{method: "patch", action: "patch", id: id("patch", suffix), description: "partially update " + what, gvk: gvk,
			parameters: patchParameters, request: patchName, consumes: patchTypes, response: body, codes: []string{"201"}},
	}
}

// The definitions every group-version's operations use.
const (
	statusName        = "io.k8s.apimachinery.pkg.apis.meta.v1.Status"
	deleteOptionsName = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"
	patchName         = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch"
)

// groupVersionPath is where a group-version is served, without the
// leading slash: "api/v1", "apis/apps/v1". It is also the key of the
// group-version's document in the /openapi/v3 index.
func groupVersionPath(info *api.ResourceInfo) string {
	if info.Group == "" {
		return "api/" + info.Version
	}
	return "apis/" + info.Group + "/" + info.Version
}

// operationGroup is the group-version as operationIds spell it: "CoreV1",
// "AppsV1", "CoordinationV1" (the ".k8s.io" suffix dropped, each dotted
// part capitalised), as kube-apiserver's installer names operations.
func operationGroup(info *api.ResourceInfo) string {
	group := info.Group
	if group == "" {
		group = "core"
	}
	var b strings.Builder
	for _, part := range strings.Split(strings.TrimSuffix(group, ".k8s.io"), ".") {
		b.WriteString(capitalize(part))
	}
	return b.String() + capitalize(info.Version)
}

// tag is the operations' tag: "core_v1", "apps_v1", "coordination_v1".
func tag(info *api.ResourceInfo) string {
	group := info.Group
	if group == "" {
		group = "core"
	}
	return strings.ReplaceAll(strings.TrimSuffix(group, ".k8s.io"), ".", "_") + "_" + info.Version
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
