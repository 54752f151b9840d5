package typed

import (
	"maps"
	"slices"

	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// Merge lays an applied configuration over a live value by schema:
// granular structs and maps merge key by key, set and map lists element by
// element (matched by value or key), and everything else (scalars, atomic
// values) is replaced by the configuration's. Neither input is changed.
// Kubernetes: typed/merge.go (TypedValue.Merge, mergingWalker).
//
// An explicit null in the configuration sets null, which a Go object
// decodes as the field's zero value.
func Merge(live, config any, t *Type) (any, error) {
	return merge(nil, live, true, config, true, t)
}

func merge(p fieldpath.Path, l any, lok bool, r any, rok bool, t *Type) (any, error) {
	if err := checkKind(p, r, t); err != nil {
		return nil, err
	}
	if !rok {
		return l, nil
	}
	if !lok || r == nil || l == nil {
		return r, nil
	}
	switch t.Kind {
	case Struct, Map:
		lm, lIsMap := l.(map[string]any)
		rm := r.(map[string]any)
		if t.Atomic || !lIsMap {
			return r, nil
		}
		out := maps.Clone(lm)
		for key, rv := range rm {
			ct, _ := childType(t, key)
			cp := append(slices.Clip(p), fieldpath.Field(key))
			if ct == nil {
				return nil, errorAt(cp, "field not declared in schema")
			}
			lv, ok := lm[key]
			mv, err := merge(cp, lv, ok, rv, true, ct)
			if err != nil {
				return nil, err
			}
			out[key] = mv
		}
		return out, nil
	case List:
		ll, lIsList := l.([]any)
		if t.ListType == ListAtomic || !lIsList {
			return r, nil
		}
		return mergeList(p, t, ll, r.([]any))
	}
	return r, nil
}

// indexedList is a list's elements by path element, first one winning.
type indexedList struct {
	pes   []fieldpath.PathElement
	items map[string]any
}

func indexList(p fieldpath.Path, t *Type, list []any, allowDuplicates bool) (*indexedList, error) {
	x := &indexedList{items: map[string]any{}}
	for i, item := range list {
		pe, err := listItemElement(t, item)
		if err != nil {
			return nil, errorAt(p, "element %d: %v", i, err)
		}
		k := elementKey(pe)
		if _, dup := x.items[k]; dup {
			if !allowDuplicates {
				return nil, errorAt(p, "duplicate entries for key %v", pe)
			}
			continue
		}
		x.items[k] = item
		x.pes = append(x.pes, pe)
	}
	return x, nil
}

func (x *indexedList) get(pe fieldpath.PathElement) (any, bool) {
	v, ok := x.items[elementKey(pe)]
	return v, ok
}

// mergeList merges two keyed lists. The result follows the
// configuration's order for the elements it names, and keeps each element
// only the live list has where it was relative to its neighbours, the
// order SMD's merge produces.
func mergeList(p fieldpath.Path, t *Type, l, r []any) (any, error) {
	lx, err := indexList(p, t, l, true)
	if err != nil {
		return nil, err
	}
	rx, err := indexList(p, t, r, false)
	if err != nil {
		return nil, err
	}
	// shared: elements of both lists, in the configuration's order.
	var shared []fieldpath.PathElement
	for _, pe := range rx.pes {
		if _, ok := lx.get(pe); ok {
			shared = append(shared, pe)
		}
	}
	nextShared := func() *fieldpath.PathElement {
		if len(shared) == 0 {
			return nil
		}
		return &shared[0]
	}
	popShared := func() {
		if len(shared) > 0 {
			shared = shared[1:]
		}
	}
	out := make([]any, 0, max(len(l), len(r)))
	done := map[string]bool{}
	emit := func(pe fieldpath.PathElement) error {
		lv, lok := lx.get(pe)
		rv, rok := rx.get(pe)
		ip := append(slices.Clip(p), pe)
		mv, err := merge(ip, lv, lok, rv, rok, t.Elem)
		if err != nil {
			return err
		}
		out = append(out, mv)
		done[elementKey(pe)] = true
		return nil
	}
	li, ri := 0, 0
	for li < len(lx.pes) || ri < len(rx.pes) {
		if li < len(lx.pes) && ri < len(rx.pes) {
			pe := lx.pes[li]
			if pe.Equals(rx.pes[ri]) {
				if err := emit(pe); err != nil {
					return nil, err
				}
				li, ri = li+1, ri+1
				popShared()
				continue
			}
			// a shared element the configuration puts later: leave it
			// for when the configuration reaches it
			if _, inR := rx.get(pe); inR && nextShared() != nil && !nextShared().Equals(pe) {
				li++
				continue
			}
		}
		if li < len(lx.pes) {
			pe := lx.pes[li]
			if _, inR := rx.get(pe); !inR {
				if err := emit(pe); err != nil {
					return nil, err
				}
				li++
				continue
			} else if done[elementKey(pe)] {
				li++
			}
		}
		if ri < len(rx.pes) {
			pe := rx.pes[ri]
			if err := emit(pe); err != nil {
				return nil, err
			}
			ri++
			if ns := nextShared(); ns != nil && ns.Equals(pe) {
				popShared()
			}
		}
	}
	return out, nil
}

// RemovePaths returns v without the given paths: a struct field or map key
// is deleted, a list element named by key or value is dropped. Paths below
// an atomic value or into an atomic list are ignored (they cannot be
// owned). Kubernetes: typed/remove.go (TypedValue.RemoveItems).
func RemovePaths(v any, paths []fieldpath.Path, t *Type) any {
	for _, p := range paths {
		v = removePath(v, p, t)
	}
	return v
}

func removePath(v any, p fieldpath.Path, t *Type) any {
	if len(p) == 0 || v == nil {
		return v
	}
	pe := p[0]
	switch t.Kind {
	case Struct, Map:
		m, ok := v.(map[string]any)
		if !ok || pe.FieldName == nil {
			return v
		}
		child, ok := m[*pe.FieldName]
		if !ok {
			return v
		}
		out := maps.Clone(m)
		if len(p) == 1 {
			delete(out, *pe.FieldName)
			return out
		}
		ct, _ := childType(t, *pe.FieldName)
		if ct == nil {
			return v
		}
		out[*pe.FieldName] = removePath(child, p[1:], ct)
		return out
	case List:
		list, ok := v.([]any)
		if !ok || t.ListType == ListAtomic {
			return v
		}
		out := make([]any, 0, len(list))
		for _, item := range list {
			ipe, err := listItemElement(t, item)
			if err != nil || !ipe.Equals(pe) {
				out = append(out, item)
				continue
			}
			if len(p) > 1 {
				out = append(out, removePath(item, p[1:], t.Elem))
			}
		}
		return out
	}
	return v
}
