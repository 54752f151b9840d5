package openapi

import (
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"kubeloop/api"
)

// The patch media types the PATCH operations declare.
const (
	mergePatchType = "application/merge-patch+json"
	jsonPatchType  = "application/json-patch+json"
	applyPatchType = "application/apply-patch+yaml"
)

// Handler serves the OpenAPI v3 the server publishes: an index and one
// document per group-version. kubectl reads it for one thing only: whether
// the PATCH operation of a kind declares the fieldValidation parameter. If
// it does, `kubectl create/apply` leave validation to the server
// (fieldValidation=Strict) instead of downloading /openapi/v2 schemas,
// which kubeloop does not serve. Kubernetes:
// staging/src/k8s.io/apiserver/pkg/endpoints/openapi and
// staging/src/k8s.io/kube-openapi/pkg/handler3 (the index with hashes);
// kubectl's reader is staging/src/k8s.io/cli-runtime/pkg/resource/
// query_param_verifier_v3.go (supportsQueryParamV3).
//
// The documents carry no schemas. Their PATCH operations list JSON patch,
// merge patch and apply patch but not strategic merge patch: a client that
// sees strategic merge patch in OpenAPI v3 computes the patch from the v3
// schemas, which are absent; without it kubectl computes strategic merge
// patches from the Go types compiled into it, which is what we want.
type Handler struct {
	index []byte
	// docs by path without the leading slash: "api/v1", "apis/apps/v1".
	docs map[string][]byte
}

// New builds the documents of reg's kinds once; version is the server's
// gitVersion, shown as the documents' info.version.
func New(reg *api.Registry, version string) (*Handler, error) {
	byGV := map[string][]*api.ResourceInfo{}
	for _, info := range reg.All() {
		byGV[gvPath(info)] = append(byGV[gvPath(info)], info)
	}
	o := &Handler{docs: map[string][]byte{}}
	type entry struct {
		ServerRelativeURL string `json:"serverRelativeURL"`
	}
	index := map[string]map[string]entry{"paths": {}}
	keys := make([]string, 0, len(byGV))
	for k := range byGV {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, gv := range keys {
		doc, err := json.Marshal(openAPIDocument(byGV[gv], version))
		if err != nil {
			return nil, fmt.Errorf("openapi %s: %w", gv, err)
		}
		o.docs[gv] = doc
		sum := sha512.Sum512(doc)
		// The hash lets clients cache a document until it changes.
		index["paths"][gv] = entry{ServerRelativeURL: "/openapi/v3/" + gv + "?hash=" + strings.ToUpper(hex.EncodeToString(sum[:]))}
	}
	var err error
	o.index, err = json.Marshal(index)
	return o, err
}

func gvPath(info *api.ResourceInfo) string {
	if info.Group == "" {
		return "api/" + info.Version
	}
	return "apis/" + info.Group + "/" + info.Version
}

// openAPIDocument is one group-version: for each kind, the object path with
// get, put and patch operations tagged with the kind.
func openAPIDocument(infos []*api.ResourceInfo, version string) map[string]any {
	paths := map[string]any{}
	for _, info := range infos {
		gvk := map[string]string{"group": info.Group, "version": info.Version, "kind": info.Kind}
		base := "/" + gvPath(info) + "/"
		if info.Namespaced {
			base += "namespaces/{namespace}/"
		}
		op := func(action, id string, params ...map[string]any) map[string]any {
			return map[string]any{
				"operationId":                     id + info.Kind,
				"parameters":                      params,
				"responses":                       map[string]any{"200": map[string]any{"description": "OK"}},
				"x-kubernetes-action":             action,
				"x-kubernetes-group-version-kind": gvk,
			}
		}
		patch := op("patch", "patch",
			queryParam("dryRun"), queryParam("fieldManager"), queryParam("fieldValidation"), queryParam("force"))
		patch["requestBody"] = map[string]any{"content": map[string]any{
			jsonPatchType:  map[string]any{"schema": map[string]any{"type": "object"}},
			mergePatchType: map[string]any{"schema": map[string]any{"type": "object"}},
			applyPatchType: map[string]any{"schema": map[string]any{"type": "object"}},
		}}
		paths[base+info.Resource+"/{name}"] = map[string]any{
			"get":   op("get", "read"),
			"put":   op("put", "replace", queryParam("dryRun"), queryParam("fieldManager"), queryParam("fieldValidation")),
			"patch": patch,
		}
	}
	return map[string]any{
		"openapi":    "3.0.0",
		"info":       map[string]any{"title": "Kubernetes", "version": version},
		"paths":      paths,
		"components": map[string]any{"schemas": map[string]any{}},
	}
}

func queryParam(name string) map[string]any {
	return map[string]any{"name": name, "in": "query", "schema": map[string]any{"type": "string", "uniqueItems": true}}
}

// ServeHTTP answers /openapi/v3 and /openapi/v3/<gv>.
func (o *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := strings.Trim(strings.TrimPrefix(r.URL.Path, "/openapi/v3"), "/")
	body := o.index
	if p != "" {
		doc, ok := o.docs[p]
		if !ok {
			http.NotFound(w, r)
			return
		}
		body = doc
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}
