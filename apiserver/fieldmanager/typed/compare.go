package typed

import (
	"reflect"
	"slices"

	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// Comparison is what changed from one value to another.
type Comparison struct {
	// Added are paths set in the new value and absent from the old one,
	// Removed the reverse, Modified leaves (scalars, atomic values) present
	// in both with different values.
	Added, Removed, Modified *fieldpath.Set
	// keys is the walk's room for list keys (plain_keys.go).
	keys *keyScratch
}

// IsSame reports whether nothing changed.
func (c *Comparison) IsSame() bool {
	return c.Added.Empty() && c.Removed.Empty() && c.Modified.Empty()
}

// Compare walks two values of one type together. A path counts as absent
// only when its field is missing: a field present as null in the old value
// (as a zero Go struct writes some) and set in the new one is not Added
// itself, only what it now contains. Kubernetes: typed/compare.go
// (TypedValue.Compare, compareWalker).
func Compare(old, new any, t *Type) (*Comparison, error) {
	c := &Comparison{Added: fieldpath.NewSet(), Removed: fieldpath.NewSet(), Modified: fieldpath.NewSet()}
	err := c.compare(nil, t, old, true, new, true)
	return c, err
}

// CompareObjects is Compare of two Go objects of one type (a stored
// object and its update), metadata.managedFields left out: what
//
//	old, _ := ToValueWithoutManagedFields(oldObj)
//	new, _ := ToValueWithoutManagedFields(newObj)
//	c, err := Compare(old, new, t)
//
// gives (compareObjectsByValue), made without converting the parts that
// are equal (compare_reflect.go; skip it on a first reading).
func CompareObjects(oldObj, newObj any, t *Type) (*Comparison, error) {
	if walkableObject(oldObj) && reflect.TypeOf(oldObj) == reflect.TypeOf(newObj) {
		return compareObjectsByReflection(oldObj, newObj, t)
	}
	return compareObjectsByValue(oldObj, newObj, t)
}

// compareObjectsByValue is CompareObjects the plain way, for what the
// walk does not know (a custom resource) and as its reference in tests.
func compareObjectsByValue(oldObj, newObj any, t *Type) (*Comparison, error) {
	old, err := ToValueWithoutManagedFields(oldObj)
	if err != nil {
		return nil, err
	}
	updated, err := ToValueWithoutManagedFields(newObj)
	if err != nil {
		return nil, err
	}
	return Compare(old, updated, t)
}

// compare compares l and r at p; lok and rok say whether each is present.
func (c *Comparison) compare(p fieldpath.Path, t *Type, l any, lok bool, r any, rok bool) error {
	if err := checkKind(p, l, t); err != nil {
		return err
	}
	if err := checkKind(p, r, t); err != nil {
		return err
	}
	leaf := false
	switch t.Kind {
	case List:
		ll, _ := l.([]any)
		rl, _ := r.([]any)
		if t.ListType == ListAtomic || (len(ll) == 0 && len(rl) == 0) {
			leaf = true
		} else if err := c.compareItems(p, t, ll, rl); err != nil {
			return err
		}
	case Struct, Map:
		lm, _ := l.(map[string]any)
		rm, _ := r.(map[string]any)
		if t.Atomic || (len(lm) == 0 && len(rm) == 0) {
			leaf = true
		} else if err := c.compareFields(p, t, lm, rm); err != nil {
			return err
		}
	default:
		leaf = true
	}
	switch {
	case !lok && rok:
		c.Added.Insert(p)
	case lok && !rok:
		c.Removed.Insert(p)
	case leaf && lok && rok && !fieldpath.EqualValues(l, r):
		c.Modified.Insert(p)
	}
	return nil
}

func (c *Comparison) compareFields(p fieldpath.Path, t *Type, l, r map[string]any) error {
	visit := func(key string) error {
		ct, _ := childType(t, key)
		cp := append(slices.Clip(p), fieldpath.Field(key))
		if ct == nil {
			return errorAt(cp, "field not declared in schema")
		}
		lv, lok := l[key]
		rv, rok := r[key]
		return c.compare(cp, ct, lv, lok, rv, rok)
	}
	for key := range l {
		if err := visit(key); err != nil {
			return err
		}
	}
	for key := range r {
		if _, both := l[key]; !both {
			if err := visit(key); err != nil {
				return err
			}
		}
	}
	return nil
}

// compareItems matches list elements by key (or value, for a set). An
// element that appears more than once on a side (which Kubernetes lets
// old objects hold) is compared as a whole, as SMD does.
func (c *Comparison) compareItems(p fieldpath.Path, t *Type, l, r []any) error {
	var order []fieldpath.PathElement
	group := func(items []any, into map[string][]any, seen map[string]bool) error {
		for i, item := range items {
			pe, err := listItemElement(t, item)
			if err != nil {
				return errorAt(p, "element %d: %v", i, err)
			}
			k := elementKey(pe)
			if !seen[k] {
				seen[k] = true
				order = append(order, pe)
			}
			into[k] = append(into[k], item)
		}
		return nil
	}
	lg, rg, seen := map[string][]any{}, map[string][]any{}, map[string]bool{}
	if err := group(l, lg, seen); err != nil {
		return err
	}
	if err := group(r, rg, seen); err != nil {
		return err
	}
	for _, pe := range order {
		k := elementKey(pe)
		ls, rs := lg[k], rg[k]
		ip := append(slices.Clip(p), pe)
		switch {
		case len(ls) <= 1 && len(rs) <= 1:
			var lv, rv any
			if len(ls) == 1 {
				lv = ls[0]
			}
			if len(rs) == 1 {
				rv = rs[0]
			}
			if err := c.compare(ip, t.Elem, lv, len(ls) == 1, rv, len(rs) == 1); err != nil {
				return err
			}
		case len(ls) >= 2 && len(rs) >= 2:
			if !fieldpath.EqualValues(ls, rs) {
				c.Modified.Insert(ip)
			}
		case len(ls) >= 2:
			if len(rs) == 1 {
				if err := c.compare(ip, t.Elem, nil, false, rs[0], true); err != nil {
					return err
				}
			}
			c.Removed.Insert(ip)
		default:
			if len(ls) == 1 {
				if err := c.compare(ip, t.Elem, ls[0], true, nil, false); err != nil {
					return err
				}
			}
			c.Added.Insert(ip)
		}
	}
	return nil
}

// elementKey spells a path element as a string to group by; String keeps
// kinds and value types apart ([port=80] and [port="80"] differ).
func elementKey(pe fieldpath.PathElement) string { return pe.String() }
