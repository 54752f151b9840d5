package request

import (
	"net/http"
	"strings"
)

// RequestInfo is what a URL and method mean, worked out once before any
// handler runs (by the filter WithRequestInfo) and carried in the request's
// context, like Kubernetes' RequestInfo.
type RequestInfo struct {
	// IsResourceRequest is false for discovery, health, metrics, version.
	IsResourceRequest bool
	Path              string
	// Verb is Kubernetes' verb: get, list, watch, create, update, patch,
	// delete, deletecollection.
	Verb        string
	APIPrefix   string // "api" or "apis"
	APIGroup    string
	APIVersion  string
	Namespace   string
	Resource    string
	Subresource string
	Name        string
	// Parts is the path after /api or /apis, split on "/".
	Parts []string
}

// isNamespaceSubresource says whether the word after namespaces/<name>/ is a
// subresource of the namespace rather than a resource inside it.
func isNamespaceSubresource(s string) bool { return s == "status" || s == "finalize" }

// NewRequestInfo splits a request into a RequestInfo. It never fails: a URL
// it cannot read is simply not a resource request, and routing answers it
// with 404. Kubernetes: RequestInfoFactory.NewRequestInfo.
func NewRequestInfo(r *http.Request) *RequestInfo {
	ri := &RequestInfo{Path: r.URL.Path, Verb: strings.ToLower(r.Method)}
	parts := splitPath(r.URL.Path)
	if len(parts) == 0 || (parts[0] != "api" && parts[0] != "apis") {
		return ri
	}
	ri.APIPrefix = parts[0]
	parts = parts[1:]
	ri.Parts = parts
	if ri.APIPrefix == "api" {
		if len(parts) < 1 {
			return ri
		}
		ri.APIVersion, parts = parts[0], parts[1:]
	} else {
		if len(parts) < 2 {
			return ri
		}
		ri.APIGroup, ri.APIVersion, parts = parts[0], parts[1], parts[2:]
	}
	if len(parts) == 0 {
		return ri
	}
	ri.IsResourceRequest = true
	watchPrefix := false
	if parts[0] == "watch" {
		watchPrefix, parts = true, parts[1:]
	}
	if len(parts) >= 2 && parts[0] == "namespaces" {
		ri.Namespace = parts[1]
		if len(parts) > 2 && !isNamespaceSubresource(parts[2]) {
			parts = parts[2:]
		}
	}
	switch len(parts) {
	case 0:
		ri.IsResourceRequest = false
		return ri
	case 1:
		ri.Resource = parts[0]
	case 2:
		ri.Resource, ri.Name = parts[0], parts[1]
	case 3:
		ri.Resource, ri.Name, ri.Subresource = parts[0], parts[1], parts[2]
	default:
		// Deeper paths (proxy, log, exec) are not served.
		ri.Resource, ri.Name, ri.Subresource = parts[0], parts[1], strings.Join(parts[2:], "/")
	}
	if ri.Resource == "namespaces" && ri.Name != "" {
		// namespaces/<name> is the namespace object itself.
		ri.Namespace = ""
	}

	switch r.Method {
	case http.MethodGet, http.MethodHead:
		switch {
		case watchPrefix || IsTrue(r.URL.Query().Get("watch")):
			ri.Verb = "watch"
		case ri.Name == "":
			ri.Verb = "list"
		default:
			ri.Verb = "get"
		}
	case http.MethodPost:
		ri.Verb = "create"
	case http.MethodPut:
		ri.Verb = "update"
	case http.MethodPatch:
		ri.Verb = "patch"
	case http.MethodDelete:
		if ri.Name == "" {
			ri.Verb = "deletecollection"
		} else {
			ri.Verb = "delete"
		}
	}
	return ri
}

func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// IsTrue reads a boolean query parameter the way Kubernetes' query decoder
// does for watch and allowWatchBookmarks.
func IsTrue(s string) bool { return s == "true" || s == "1" }
