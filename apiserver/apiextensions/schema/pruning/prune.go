package pruning

import (
	"sort"
	"strconv"

	"kubeloop/apiserver/apiextensions/schema"
)

// metaFields are kept at the root of a resource and of every embedded
// resource whatever the schema says: the apiserver (or, for an embedded
// object, its own kind) owns them.
var metaFields = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// Prune deletes from obj, in place, every field s does not specify and
// returns the paths of the removed fields, sorted, in the form Kubernetes
// reports them to fieldValidation Strict and Warn
// ("spec.containers[0].foo", map values as "spec.labels.x"). A node with
// x-kubernetes-preserve-unknown-fields keeps its unknown fields but its
// known ones are still pruned below it. With isResourceRoot, obj is a
// whole object, whose apiVersion, kind and metadata are kept (and never
// reported).
func Prune(obj any, s *schema.Structural, isResourceRoot bool) []string {
	if isResourceRoot {
		if s == nil {
			s = &schema.Structural{}
		}
		if !s.XEmbeddedResource {
			clone := *s
			clone.XEmbeddedResource = true
			s = &clone
		}
	}
	p := &pruner{}
	p.prune(obj, s, "")
	sort.Strings(p.unknown)
	return p.unknown
}

// pruner collects the paths of what it removed.
type pruner struct {
	unknown []string
}

func childPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func indexPath(parent string, i int) string { return parent + "[" + strconv.Itoa(i) + "]" }

func (p *pruner) prune(x any, s *schema.Structural, path string) {
	if s != nil && s.XPreserveUnknownFields {
		p.skip(x, s, path)
		return
	}
	switch t := x.(type) {
	case map[string]any:
		if s == nil {
			for k := range t {
				p.unknown = append(p.unknown, childPath(path, k))
				delete(t, k)
			}
			return
		}
		for k, v := range t {
			if s.XEmbeddedResource && metaFields[k] {
				continue
			}
			if prop, ok := s.Property(k); ok {
				p.prune(v, prop, childPath(path, k))
			} else if s.AdditionalProperties != nil {
				p.prune(v, s.AdditionalProperties.Structural, childPath(path, k))
			} else {
				// Kubernetes does not report a root-level apiVersion,
				// kind or metadata it drops.
				if !metaFields[k] || path != "" {
					p.unknown = append(p.unknown, childPath(path, k))
				}
				delete(t, k)
			}
		}
	case []any:
		var items *schema.Structural
		if s != nil {
			items = s.Items
		}
		for i, v := range t {
			p.prune(v, items, indexPath(path, i))
		}
	}
}

// skip walks a node that preserves unknown fields: only the fields its
// schema specifies are descended into, and pruned there.
func (p *pruner) skip(x any, s *schema.Structural, path string) {
	if s == nil {
		return
	}
	switch t := x.(type) {
	case map[string]any:
		for k, v := range t {
			if s.XEmbeddedResource && metaFields[k] {
				continue
			}
			if prop, ok := s.Property(k); ok {
				p.prune(v, prop, childPath(path, k))
			} else if s.AdditionalProperties != nil {
				p.prune(v, s.AdditionalProperties.Structural, childPath(path, k))
			}
		}
	case []any:
		for i, v := range t {
			p.skip(v, s.Items, indexPath(path, i))
		}
	}
}
