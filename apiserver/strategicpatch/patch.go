package strategicpatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The directives a patch may carry (see doc.go).
const (
	directiveMarker        = "$patch"
	replaceDirective       = "replace"
	deleteDirective        = "delete"
	mergeDirective         = "merge"
	retainKeysDirective    = "$retainKeys"
	setElementOrderPrefix  = "$setElementOrder/"
	deleteFromPrimitiveDir = "$deleteFromPrimitiveList/"
)

// ErrBadPatch wraps every error caused by the patch itself (a malformed
// directive, a list element without its merge key); the apiserver answers
// it with 422, as Kubernetes does.
var ErrBadPatch = errors.New("invalid strategic merge patch")

func badPatch(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadPatch, fmt.Sprintf(format, args...))
}

// Apply applies a strategic merge patch to the JSON object original and
// returns the patched JSON. schema says how lists merge; nil treats every
// list as atomic (JSON merge patch behaviour).
func Apply(original, patch []byte, schema *Schema) ([]byte, error) {
	orig, err := decodeObject(original)
	if err != nil {
		return nil, fmt.Errorf("decode original: %w", err)
	}
	p, err := decodeObject(patch)
	if err != nil {
		return nil, badPatch("%v", err)
	}
	out, err := MergeMap(orig, p, schema)
	if err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

// decodeObject decodes a JSON object, keeping numbers exact (json.Number),
// so that merge keys such as containerPort compare as written.
func decodeObject(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errors.New("not a JSON object")
	}
	return m, nil
}

// MergeMap merges patch into original (both decoded JSON objects) and
// returns the result. Both maps may be modified.
func MergeMap(original, patch map[string]any, schema *Schema) (map[string]any, error) {
	if d, ok := patch[directiveMarker]; ok {
		switch d {
		case replaceDirective:
			// The patch is the whole new value of this object.
			delete(patch, directiveMarker)
			return MergeMap(map[string]any{}, patch, schema)
		case deleteDirective:
			return map[string]any{}, nil
		case mergeDirective:
			delete(patch, directiveMarker)
		default:
			return nil, badPatch("unknown %s directive %v", directiveMarker, d)
		}
	}
	if original == nil {
		original = map[string]any{}
	}
	if err := applyRetainKeys(original, patch); err != nil {
		return nil, err
	}
	// Deletions from primitive lists and explicit orders first: they pair
	// with the list of the same name, which they consume from the patch.
	for k, v := range patch {
		if name, ok := strings.CutPrefix(k, deleteFromPrimitiveDir); ok {
			delete(patch, k)
			if err := deleteFromPrimitiveList(original, name, v); err != nil {
				return nil, err
			}
		}
	}
	for k, v := range patch {
		if name, ok := strings.CutPrefix(k, setElementOrderPrefix); ok {
			delete(patch, k)
			if err := applyElementOrder(original, patch, name, v, schema.field(name)); err != nil {
				return nil, err
			}
		}
	}
	for k, pv := range patch {
		if pv == nil {
			delete(original, k)
			continue
		}
		ov, exists := original[k]
		var err error
		switch pt := pv.(type) {
		case map[string]any:
			om, isMap := ov.(map[string]any)
			if !exists || !isMap {
				if pt[directiveMarker] == deleteDirective {
					delete(original, k)
					continue
				}
				om = map[string]any{}
			}
			original[k], err = MergeMap(om, pt, schema.sub(k))
		case []any:
			ol, _ := ov.([]any)
			original[k], err = mergeList(ol, pt, schema.field(k))
		default:
			original[k] = pv
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
	}
	return original, nil
}

// applyRetainKeys honours "$retainKeys": every key of original not in the
// list goes, and the patch may not set a key outside it.
func applyRetainKeys(original, patch map[string]any) error {
	rk, ok := patch[retainKeysDirective]
	if !ok {
		return nil
	}
	delete(patch, retainKeysDirective)
	list, ok := rk.([]any)
	if !ok {
		return badPatch("%s must be a list of strings", retainKeysDirective)
	}
	keep := map[any]bool{}
	for _, k := range list {
		keep[k] = true
	}
	for k, v := range patch {
		if v == nil || strings.HasPrefix(k, setElementOrderPrefix) || strings.HasPrefix(k, deleteFromPrimitiveDir) {
			continue
		}
		if !keep[k] {
			return badPatch("field %q is set but not listed in %s", k, retainKeysDirective)
		}
	}
	for k := range original {
		if !keep[k] {
			delete(original, k)
		}
	}
	return nil
}

// deleteFromPrimitiveList removes the values listed in the directive from
// the primitive list original[name].
func deleteFromPrimitiveList(original map[string]any, name string, v any) error {
	drop, ok := v.([]any)
	if !ok {
		return badPatch("%s%s must be a list", deleteFromPrimitiveDir, name)
	}
	cur, ok := original[name].([]any)
	if !ok {
		return nil
	}
	gone := map[any]bool{}
	for _, d := range drop {
		if isScalar(d) {
			gone[d] = true
		}
	}
	out := make([]any, 0, len(cur))
	for _, c := range cur {
		if isScalar(c) && gone[c] {
			continue
		}
		out = append(out, c)
	}
	original[name] = out
	return nil
}

func isScalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}
