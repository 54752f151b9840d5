package openapi

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver/openapi/spec"
	"kubeloop/apiserver/openapi/swaggerpb"
)

// CustomResources are the kinds defined at run time that the documents
// publish beside the built-in ones: the served versions of every CRD.
type CustomResources interface {
	// OpenAPIVersion changes whenever the set of kinds or a schema does.
	OpenAPIVersion() uint64
	// OpenAPIKinds is every served custom resource version.
	OpenAPIKinds() []CustomKind
}

// CustomKind is one served version of a CRD and its schema (nil: none).
type CustomKind struct {
	Info   *api.ResourceInfo
	Schema *api.JSONSchemaProps
}

// SetCustomResources makes the documents include cr's kinds from now on;
// log hears of a schema that cannot be published.
func (h *Handler) SetCustomResources(cr CustomResources, log *slog.Logger) {
	h.custom, h.log = cr, log
}

// customDocuments are the documents with the custom resources of one
// OpenAPIVersion.
type customDocuments struct {
	version uint64
	docs    *documents
	etags   map[string]string
	built   time.Time
}

// current is what to serve: the built-in documents, or those with the
// custom resources, rebuilt when they changed. Kubernetes rebuilds its
// CRD specs in a controller (apiextensions-apiserver pkg/controller/openapi
// and openapiv3) and merges them into the aggregated document the same way.
func (h *Handler) current() (*documents, map[string]string, time.Time) {
	if h.custom == nil {
		return h.docs, h.etags, h.built
	}
	v := h.custom.OpenAPIVersion()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.withCR != nil && h.withCR.version == v {
		return h.withCR.docs, h.withCR.etags, h.withCR.built
	}
	kinds := h.custom.OpenAPIKinds()
	if len(kinds) == 0 {
		return h.docs, h.etags, h.built
	}
	d, err := h.docs.withCustom(kinds)
	if err != nil {
		// A schema that cannot be published leaves the built-in documents.
		h.log.Error("custom resources not published", "component", "openapi", "err", err)
		return h.docs, h.etags, h.built
	}
	cd := &customDocuments{version: v, docs: d, etags: map[string]string{"v2": contentHash(d.v2JSON)}, built: time.Now()}
	for gv, doc := range d.v3 {
		cd.etags[gv] = contentHash(doc)
	}
	h.withCR = cd
	return cd.docs, cd.etags, cd.built
}

const (
	objectMetaName = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	listMetaName   = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"
)

// withCustom is d with every custom kind's paths and definitions added:
// a v3 document per custom group version, and the v2 document grown.
func (d *documents) withCustom(kinds []CustomKind) (*documents, error) {
	out := &documents{v3: map[string][]byte{}, defs: d.defs, info: d.info, v2Paths: map[string]any{}}
	for gv, doc := range d.v3 {
		out.v3[gv] = doc
	}
	for p, item := range d.v2Paths {
		out.v2Paths[p] = item
	}
	v2Defs := d.defs.V2()
	byGV := map[string][]CustomKind{}
	for _, k := range kinds {
		byGV[groupVersionPath(k.Info)] = append(byGV[groupVersionPath(k.Info)], k)
	}
	for gv, ks := range byGV {
		var paths []pathItem
		v3Defs := map[string]any{}
		for _, k := range ks {
			kindName, listName := customDefinitionNames(k.Info)
			p := resourcePathsNamed(k.Info, kindName, listName)
			withoutStrategicMergePatch(p)
			paths = append(paths, p...)
			for _, item := range p {
				out.v2Paths[item.path] = item.v2()
			}
			obj3, list3, err := customDefinitions(k, true)
			if err != nil {
				return nil, err
			}
			obj2, list2, err := customDefinitions(k, false)
			if err != nil {
				return nil, err
			}
			v3Defs[kindName], v3Defs[listName] = obj3, list3
			v2Defs[kindName], v2Defs[listName] = obj2, list2
		}
		roots := append(referenced(paths), objectMetaName, listMetaName)
		for name, def := range d.defs.Closure(roots...).V3() {
			v3Defs[name] = def
		}
		v3Paths := map[string]any{}
		for _, p := range paths {
			v3Paths[p.path] = p.v3()
		}
		doc, err := json.Marshal(map[string]any{"openapi": "3.0.0", "info": d.info, "paths": v3Paths, "components": map[string]any{"schemas": v3Defs}})
		if err != nil {
			return nil, fmt.Errorf("openapi %s: %w", gv, err)
		}
		out.v3[gv] = doc
	}
	var err error
	if out.v3Index, err = v3Index(out.v3); err != nil {
		return nil, err
	}
	out.v2JSON, err = json.Marshal(map[string]any{"swagger": "2.0", "info": d.info, "paths": out.v2Paths, "definitions": v2Defs})
	if err != nil {
		return nil, fmt.Errorf("openapi v2: %w", err)
	}
	if out.v2Protobuf, err = swaggerpb.Marshal(out.v2JSON); err != nil {
		return nil, fmt.Errorf("openapi v2: %w", err)
	}
	return out, nil
}

// v3Index is /openapi/v3: every document's path with its hash.
func v3Index(docs map[string][]byte) ([]byte, error) {
	type entry struct {
		ServerRelativeURL string `json:"serverRelativeURL"`
	}
	index := map[string]entry{}
	for gv, doc := range docs {
		index[gv] = entry{ServerRelativeURL: "/openapi/v3/" + gv + "?hash=" + contentHash(doc)}
	}
	return json.Marshal(map[string]any{"paths": index})
}

// customDefinitionNames are Kubernetes' names for a custom kind and its
// list: the group reversed, the version and the kind
// ("com.example.stable.v1.CronTab").
func customDefinitionNames(info *api.ResourceInfo) (kind, list string) {
	parts := strings.Split(info.Group, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	prefix := strings.Join(parts, ".") + "." + info.Version + "."
	return prefix + info.Kind, prefix + info.ListKind()
}

// customDefinitions are the object and list definitions of one custom
// kind: its schema with apiVersion, kind and metadata (a reference to
// ObjectMeta) and its x-kubernetes-group-version-kind. v2 has no anyOf,
// oneOf, allOf, not or nullable: they are dropped, as Kubernetes'
// ToStructuralOpenAPIV2 drops them. Kubernetes: apiextensions-apiserver
// pkg/controller/openapi/builder/builder.go (BuildOpenAPIV2/V3, buildKubeNative).
func customDefinitions(k CustomKind, v3 bool) (obj, list map[string]any, err error) {
	obj = map[string]any{"type": "object"}
	if k.Schema != nil {
		b, err := json.Marshal(k.Schema)
		if err != nil {
			return nil, nil, err
		}
		v, err := api.DecodeJSONValue(b)
		if err != nil {
			return nil, nil, err
		}
		obj = v.(map[string]any)
	}
	if !v3 {
		stripForV2(obj)
	}
	props, _ := obj["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		obj["properties"] = props
	}
	ref := func(name string) map[string]any {
		if v3 {
			return map[string]any{"allOf": []any{map[string]any{"$ref": spec.RefV3(name)}}}
		}
		return map[string]any{"$ref": spec.RefV2(name)}
	}
	refTo := func(name string) string {
		if v3 {
			return spec.RefV3(name)
		}
		return spec.RefV2(name)
	}
	props["apiVersion"] = map[string]any{"type": "string", "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"}
	props["kind"] = map[string]any{"type": "string", "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"}
	meta := ref(objectMetaName)
	meta["description"] = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
	props["metadata"] = meta
	gvk := func(kind string) []spec.GroupVersionKind {
		return []spec.GroupVersionKind{{Group: k.Info.Group, Kind: kind, Version: k.Info.Version}}
	}
	obj[spec.ExtGroupVersionKind] = gvk(k.Info.Kind)
	kindName, _ := customDefinitionNames(k.Info)
	listMeta := ref(listMetaName)
	list = map[string]any{
		"type":        "object",
		"description": k.Info.Kind + "List is a list of " + k.Info.Kind,
		"required":    []any{"items"},
		"properties": map[string]any{
			"apiVersion": props["apiVersion"],
			"kind":       props["kind"],
			"items": map[string]any{"type": "array", "description": "List of " + k.Info.Resource,
				"items": map[string]any{"$ref": refTo(kindName)}},
			"metadata": listMeta,
		},
		spec.ExtGroupVersionKind: gvk(k.Info.ListKind()),
	}
	return obj, list, nil
}

// stripForV2 removes, in place, what Swagger 2.0 cannot say.
func stripForV2(v any) {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range []string{"anyOf", "oneOf", "allOf", "not", "nullable", "x-kubernetes-validations"} {
			delete(t, k)
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "properties" {
				if props, ok := t[k].(map[string]any); ok {
					for _, p := range props {
						stripForV2(p)
					}
				}
				continue
			}
			if k == "items" || k == "additionalProperties" {
				stripForV2(t[k])
			}
		}
	}
}

// withoutStrategicMergePatch drops strategic merge patch from what the
// PATCH operations accept, as Kubernetes' CRD documents do: kubectl apply
// reads it there and sends custom resources a JSON merge patch instead.
func withoutStrategicMergePatch(paths []pathItem) {
	for i := range paths {
		for j := range paths[i].operations {
			op := &paths[i].operations[j]
			if op.method != "patch" {
				continue
			}
			var keep []string
			for _, mt := range op.consumes {
				if mt != "application/strategic-merge-patch+json" {
					keep = append(keep, mt)
				}
			}
			op.consumes = keep
		}
	}
}
