package validate

import (
	"encoding/json"
	"fmt"

	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema"
)

// junctors checks allOf, anyOf, oneOf and not. Their own messages are not
// about a field: Kubernetes reports them at the nil path ("<nil>") with
// the value's name quoted in the message, and adds the errors of the
// branch that came closest.
func (w *walk) junctors(n *node, x any, path string) {
	if len(n.anyOf) > 0 {
		var best field.ErrorList
		ok := false
		for _, b := range n.anyOf {
			errs := w.branch(b, x, path)
			if len(errs) == 0 {
				ok = true
				break
			}
			if best == nil || len(errs) < len(best) {
				best = errs
			}
		}
		if !ok {
			w.add(field.Invalid(w.rootField(), "", fmt.Sprintf("%q must validate at least one schema (anyOf)", path)))
			w.errs = append(w.errs, best...)
		}
	}
	if len(n.oneOf) > 0 {
		var best field.ErrorList
		valid := 0
		for _, b := range n.oneOf {
			errs := w.branch(b, x, path)
			if len(errs) == 0 {
				valid++
			} else if valid == 0 && (best == nil || len(errs) < len(best)) {
				best = errs
			}
		}
		switch valid {
		case 1:
		case 0:
			w.add(field.Invalid(w.rootField(), "", fmt.Sprintf("%q must validate one and only one schema (oneOf). Found none valid", path)))
			w.errs = append(w.errs, best...)
		default:
			w.add(field.Invalid(w.rootField(), "", fmt.Sprintf("%q must validate one and only one schema (oneOf). Found %d valid alternatives", path, valid)))
		}
	}
	if len(n.allOf) > 0 {
		valid := 0
		for _, b := range n.allOf {
			errs := w.branch(b, x, path)
			if len(errs) == 0 {
				valid++
			}
			w.errs = append(w.errs, errs...)
		}
		if valid != len(n.allOf) {
			suffix := ""
			if valid == 0 {
				suffix = ". None validated"
			}
			w.add(field.Invalid(w.rootField(), "", fmt.Sprintf("%q must validate all the schemas (allOf)%s", path, suffix)))
		}
	}
	if n.not != nil && len(w.branch(n.not, x, path)) == 0 {
		w.add(field.Invalid(w.rootField(), "", fmt.Sprintf("%q must not validate the schema (not)", path)))
	}
}

// branch validates x against one junctor branch, on its own error list.
func (w *walk) branch(b *node, x any, path string) field.ErrorList {
	sub := &walk{base: w.base}
	sub.value(b, x, path)
	return sub.errs
}

// equalJSON compares unstructured values, numbers by value (1 and 1.0 are
// equal).
func equalJSON(a, b any) bool {
	if fa, _, ok := schema.Number(a); ok {
		fb, _, ok := schema.Number(b)
		return ok && fa == fb
	}
	switch ta := a.(type) {
	case map[string]any:
		tb, ok := b.(map[string]any)
		if !ok || len(ta) != len(tb) {
			return false
		}
		for k, va := range ta {
			vb, ok := tb[k]
			if !ok || !equalJSON(va, vb) {
				return false
			}
		}
		return true
	case []any:
		tb, ok := b.([]any)
		if !ok || len(ta) != len(tb) {
			return false
		}
		for i := range ta {
			if !equalJSON(ta[i], tb[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// rootField is where the junctors' messages go: the nil path, or the base.
func (w *walk) rootField() field.Path {
	if w.base != "" {
		return w.base
	}
	return rootPath
}
