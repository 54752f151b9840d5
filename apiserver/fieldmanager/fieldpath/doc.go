// Package fieldpath names the fields of an object and holds sets of them:
// the vocabulary server-side apply uses to say who owns what.
//
// A Path is a list of PathElements from the object's root: a field name
// (f:spec), an element of a list keyed by some of its fields
// (k:{"name":"c"}), an element of a set-like list by its value (v:"x"), or
// an element of an atomic list by position (i:0). A Set is a tree of paths;
// a path can be a member (the field itself is owned) and a parent (fields
// below it are owned) at once. Sets are written in the FieldsV1 format that
// metadata.managedFields carries, byte for byte as Kubernetes writes it.
//
// Kubernetes: sigs.k8s.io/structured-merge-diff/v6/fieldpath (element.go
// PathElement.Compare, set.go Set.Union/Difference/Leaves, serialize.go
// Set.ToJSON/FromJSON, serialize-pe.go SerializePathElement), pinned to the
// version Kubernetes v1.37.2 uses (v6.4.2).
//
// What we simplify: sets are sorted slices searched by binary search, as in
// SMD, but without its pooled buffers and iterators; values are the plain Go
// values encoding/json produces (nil, bool, string, json.Number, []any,
// map[string]any); there is no PathElementMap, no SetMatcher and no
// versioned ManagedFields type here (see package fieldmanager).
package fieldpath
