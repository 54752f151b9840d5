package spec

import (
	"fmt"
	"reflect"
	"sort"

	"kubeloop/api"
)

// Build returns the definitions of every kind of reg and of its list, of
// the bodies the API exchanges besides kinds (Status, DeleteOptions, the
// binding and scale subresources' Binding and Scale, WatchEvent, Patch),
// and of every type they reach. Each kind, list and body carries
// x-kubernetes-group-version-kind.
func Build(reg *api.Registry) (Definitions, error) {
	b := newBuilder()
	tag := func(obj any, gvks ...GroupVersionKind) error {
		name, err := b.define(reflect.TypeOf(obj).Elem())
		if err != nil {
			return err
		}
		setExtension(b.defs[name], ExtGroupVersionKind, gvks)
		return nil
	}
	groupVersions := map[GroupVersionKind]bool{}
	for _, info := range reg.All() {
		gvk := GroupVersionKind{Group: info.Group, Version: info.Version, Kind: info.Kind}
		if err := tag(info.New(), gvk); err != nil {
			return nil, err
		}
		if info.NewList != nil { // the reviews have none
			gvk.Kind = info.ListKind()
			if err := tag(info.NewList(), gvk); err != nil {
				return nil, err
			}
		}
		groupVersions[GroupVersionKind{Group: info.Group, Version: info.Version}] = true
		for _, sub := range info.Subresources {
			k, ok := api.SubresourceKind(sub)
			if !ok {
				continue
			}
			body, err := subresourceBody(sub)
			if err != nil {
				return nil, err
			}
			if err := tag(body, GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}); err != nil {
				return nil, err
			}
			groupVersions[GroupVersionKind{Group: k.Group, Version: k.Version}] = true
		}
	}
	if err := tag(&api.Status{}, GroupVersionKind{Version: "v1", Kind: "Status"}); err != nil {
		return nil, err
	}
	// DeleteOptions and WatchEvent are accepted in every group-version, and
	// say so: one entry each, sorted, as Kubernetes lists them.
	if err := tag(&api.DeleteOptions{}, everyGroupVersion(groupVersions, "DeleteOptions")...); err != nil {
		return nil, err
	}
	b.addWireSchemas(everyGroupVersion(groupVersions, "WatchEvent"))
	return b.defs, b.defs.check()
}

func subresourceBody(sub string) (any, error) {
	switch sub {
	case "binding":
		return &api.Binding{}, nil
	case "scale":
		return &api.Scale{}, nil
	case "finalize":
		return &api.Namespace{}, nil
	case "token":
		return &api.TokenRequest{}, nil
	}
	return nil, fmt.Errorf("openapi: no body type for subresource %q", sub)
}

func everyGroupVersion(gvs map[GroupVersionKind]bool, kind string) []GroupVersionKind {
	var out []GroupVersionKind
	for gv := range gvs {
		gv.Kind = kind
		out = append(out, gv)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Group != out[j].Group {
			return out[i].Group < out[j].Group
		}
		return out[i].Version < out[j].Version
	})
	return out
}

// addWireSchemas adds the definitions of shapes that have no Go struct in
// package api: a watch event as it is written on the wire (api.WatchEvent
// holds a decoded Object), the object inside it, and the body of a PATCH,
// whose shape depends on its content type.
func (b *builder) addWireSchemas(watchGVKs []GroupVersionKind) {
	raw := modelPackage("RawExtension") + ".RawExtension"
	b.defs[raw] = &Schema{Type: "object", Description: "RawExtension is an embedded object in its JSON form; its kind is in its own apiVersion and kind."}
	event := &Schema{
		Type:        "object",
		Description: api.Description("WatchEvent", ""),
		Properties: map[string]*Schema{
			"type":   {Type: "string", Default: "", Description: "ADDED, MODIFIED, DELETED, BOOKMARK or ERROR."},
			"object": {Ref: raw, Description: "The object the event is about: the new state for ADDED and MODIFIED, the last state for DELETED, a Status for ERROR, an object with only metadata.resourceVersion for BOOKMARK."},
		},
		Required: []string{"type", "object"},
	}
	setExtension(event, ExtGroupVersionKind, watchGVKs)
	b.defs[modelPackage("WatchEvent")+".WatchEvent"] = event
	b.defs[modelPackage("Patch")+".Patch"] = &Schema{
		Type:        "object",
		Description: "Patch is the body of a PATCH request: a JSON patch, a JSON merge patch, a strategic merge patch or an apply configuration, as its Content-Type says.",
	}
}

// check verifies that every reference resolves.
func (d Definitions) check() error {
	var missing []string
	for name, s := range d {
		s.refs(func(ref string) {
			if d[ref] == nil {
				missing = append(missing, name+" → "+ref)
			}
		})
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("openapi: unresolved references: %v", missing)
	}
	return nil
}

// Closure returns the definitions named by roots and every definition
// they reach: what one document needs.
func (d Definitions) Closure(roots ...string) Definitions {
	out := Definitions{}
	var visit func(string)
	visit = func(name string) {
		if _, seen := out[name]; seen || d[name] == nil {
			return
		}
		out[name] = d[name]
		d[name].refs(visit)
	}
	for _, r := range roots {
		visit(r)
	}
	return out
}

// NameOf is the definition name of an object's Go type:
// NameOf(&api.Pod{}) is "io.k8s.api.core.v1.Pod".
func NameOf(obj any) string {
	t := reflect.TypeOf(obj)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return definitionName(t)
}

// V2 renders every definition for a Swagger 2.0 document's "definitions".
func (d Definitions) V2() map[string]any {
	out := make(map[string]any, len(d))
	for name, s := range d {
		out[name] = s.V2()
	}
	return out
}

// V3 renders every definition for an OpenAPI 3.0 document's
// "components.schemas".
func (d Definitions) V3() map[string]any {
	out := make(map[string]any, len(d))
	for name, s := range d {
		out[name] = s.V3()
	}
	return out
}
