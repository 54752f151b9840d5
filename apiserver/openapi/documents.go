package openapi

import (
	"encoding/json"
	"fmt"
	"sort"

	"kubeloop/api"
	"kubeloop/apiserver/openapi/spec"
	"kubeloop/apiserver/openapi/swaggerpb"
)

// documents is everything the server publishes under /openapi, encoded
// once at start-up: the documents never change while the server runs (the
// set of kinds is fixed), so every request is a copy of bytes.
type documents struct {
	v2JSON, v2Protobuf []byte
	// v3Index is /openapi/v3: each group-version's document path with the
	// hash of its content, which clients use to cache the document.
	v3Index []byte
	// v3 holds the documents by group-version path: "api/v1", "apis/apps/v1".
	v3 map[string][]byte

	// What the documents were made of, kept to add custom resources to:
	// the built-in definitions, the v2 paths and the title block.
	defs    spec.Definitions
	v2Paths map[string]any
	info    map[string]any
}

// buildDocuments renders the definitions of every kind of reg and the
// paths that serve them: one Swagger 2.0 document for the whole API and
// one OpenAPI 3.0 document per group-version, each with exactly the
// definitions its paths reach.
func buildDocuments(reg *api.Registry, version string) (*documents, error) {
	defs, err := spec.Build(reg)
	if err != nil {
		return nil, err
	}
	info := map[string]any{"title": "Kubernetes", "version": version}
	byGV := map[string][]pathItem{}
	var all []pathItem
	for _, ri := range reg.All() {
		paths := resourcePaths(ri)
		byGV[groupVersionPath(ri)] = append(byGV[groupVersionPath(ri)], paths...)
		all = append(all, paths...)
	}

	v2Paths := map[string]any{}
	d := &documents{v3: map[string][]byte{}, defs: defs, v2Paths: v2Paths, info: info}
	for _, p := range all {
		v2Paths[p.path] = p.v2()
	}
	d.v2JSON, err = json.Marshal(map[string]any{"swagger": "2.0", "info": info, "paths": v2Paths, "definitions": defs.V2()})
	if err != nil {
		return nil, fmt.Errorf("openapi v2: %w", err)
	}
	if d.v2Protobuf, err = swaggerpb.Marshal(d.v2JSON); err != nil {
		return nil, fmt.Errorf("openapi v2: %w", err)
	}

	type entry struct {
		ServerRelativeURL string `json:"serverRelativeURL"`
	}
	index := map[string]entry{}
	for gv, paths := range byGV {
		v3Paths := map[string]any{}
		for _, p := range paths {
			v3Paths[p.path] = p.v3()
		}
		doc, err := json.Marshal(map[string]any{
			"openapi":    "3.0.0",
			"info":       info,
			"paths":      v3Paths,
			"components": map[string]any{"schemas": defs.Closure(referenced(paths)...).V3()},
		})
		if err != nil {
			return nil, fmt.Errorf("openapi %s: %w", gv, err)
		}
		d.v3[gv] = doc
		index[gv] = entry{ServerRelativeURL: "/openapi/v3/" + gv + "?hash=" + contentHash(doc)}
	}
	if d.v3Index, err = json.Marshal(map[string]any{"paths": index}); err != nil {
		return nil, err
	}
	return d, nil
}

// referenced is every definition the operations of paths name as a body:
// the roots of their document's schemas.
func referenced(paths []pathItem) []string {
	seen := map[string]bool{}
	for _, p := range paths {
		for _, op := range p.operations {
			seen[op.request], seen[op.response] = true, true
		}
	}
	delete(seen, "")
	out := make([]string, 0, len(seen))
	for name := range seen {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
