package typed

// Skip on a first reading: a speed-up. CompareObjects could turn both
// objects into values and compare those (compareObjectsByValue); every
// tracked update does that, and on a pod the two conversions and the walk
// over two whole objects were most of what the field manager costs, though
// an update changes a few fields (an image, a label, a heartbeat time).
// This walk goes down the two Go objects side by side and converts only the
// parts that differ (a field on one side only, a changed scalar, a list
// element of a new key), so unchanged containers, env and mounts cost a
// field-by-field look and no allocation. Where it is not sure of
// encoding/json's rules (types that write themselves, interfaces, sets,
// empty lists and maps, one side nil) it converts that part and lets
// Comparison.compare decide, so the answer is Compare's by construction.
// BenchmarkUpdatePod (apiserver/fieldmanager) and
// BenchmarkCreateUpdateManagedFields (apiserver) show it;
// TestCompareObjectsEqualsCompareOfValues holds the two to each other.

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"

	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// walkableObject reports whether obj is a pointer to a struct that is
// written field by field (not a custom resource, which writes itself).
func walkableObject(obj any) bool {
	t := reflect.TypeOf(obj)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return false
	}
	return !writesItself(t.Elem())
}

// writesItself reports whether t (or *t) has its own JSON or text form,
// remembered per type. Types that can have no methods at all (string,
// int32, []string, map[string]string: most leaves of an object) are
// answered without the lookup, a tenth of a create's walk.
func writesItself(t reflect.Type) bool {
	if hasNoMethods(t) {
		return false
	}
	if w, ok := writesItselfByType.Load(t); ok {
		return w.(bool)
	}
	w := implementsWriter(t)
	writesItselfByType.Store(t, w)
	return w
}

func implementsWriter(t reflect.Type) bool {
	return t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) ||
		t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)
}

// hasNoMethods reports whether neither t nor *t can have a method: a
// predeclared type, or an unnamed slice, map or array. (An unnamed
// struct may promote its fields' methods, an unnamed pointer its
// element's.)
func hasNoMethods(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Array:
		return t.Name() == ""
	case reflect.Struct, reflect.Pointer, reflect.Interface:
		return false
	}
	return t.PkgPath() == ""
}

// writesItselfByType caches writesItself; types never change while a
// process runs.
var writesItselfByType sync.Map // reflect.Type → bool

func compareObjectsByReflection(old, new any, t *Type) (*Comparison, error) {
	c := &Comparison{Added: fieldpath.NewSet(), Removed: fieldpath.NewSet(), Modified: fieldpath.NewSet()}
	err := c.structs(nil, t, reflect.ValueOf(old).Elem(), reflect.ValueOf(new).Elem(), "", "managedFields")
	return c, err
}

// structs compares two structs of one Go type field by field, as
// compareFields compares their values; omit is a field left out, and
// omitInMetadata one left out of the metadata field.
func (c *Comparison) structs(p fieldpath.Path, t *Type, l, r reflect.Value, omit, omitInMetadata string) error {
	if t.Kind != Struct || t.Atomic {
		return c.leafOrConvert(p, t, l, r)
	}
	for _, f := range fieldsOf(l.Type()) {
		if f.name == omit {
			continue
		}
		lf, lok := presentField(l, f)
		rf, rok := presentField(r, f)
		if !lok && !rok {
			continue
		}
		ct, _ := childType(t, f.name)
		if ct == nil {
			return errorAt(append(slices.Clip(p), f.pe), "field not declared in schema")
		}
		omitBelow := ""
		if f.name == "metadata" {
			omitBelow = omitInMetadata
		}
		if lok && rok && omitBelow == "" && sameValue(lf, rf) {
			continue // equal Go values write equal JSON: nothing below changed
		}
		cp := append(slices.Clip(p), f.pe)
		if lok && rok && !f.quoted {
			if omitBelow != "" && lf.Kind() == reflect.Struct {
				if err := c.structs(cp, ct, lf, rf, omitBelow, ""); err != nil {
					return err
				}
				continue
			}
			if err := c.values(cp, ct, lf, rf); err != nil {
				return err
			}
			continue
		}
		if !f.quoted && lok != rok {
			side := lf
			if rok {
				side = rf
			}
			if err := c.only(cp, ct, side, lok, omitBelow); err != nil {
				return err
			}
			continue
		}
		lv, err := fieldValue(lf, lok, f, omitBelow)
		if err != nil {
			return err
		}
		rv, err := fieldValue(rf, rok, f, omitBelow)
		if err != nil {
			return err
		}
		if err := c.compare(cp, ct, lv, lok, rv, rok); err != nil {
			return err
		}
	}
	return nil
}

// presentField is a struct's field and whether encoding/json writes it
// (reflectStructOmitting's rules).
func presentField(v reflect.Value, f jsonField) (reflect.Value, bool) {
	fv, ok := fieldByIndex(v, f.index)
	if !ok || (f.omitEmpty && isEmptyValue(fv)) || (f.omitZero && isZeroValue(fv)) {
		return reflect.Value{}, false
	}
	return fv, true
}

// fieldValue is a present field as a value, as reflectStructOmitting
// writes it; nil for an absent one.
func fieldValue(fv reflect.Value, present bool, f jsonField, omitInside string) (any, error) {
	if !present {
		return nil, nil
	}
	if omitInside != "" && fv.Kind() == reflect.Struct {
		return reflectStructOmitting(fv, omitInside, "")
	}
	val, err := reflectValue(fv)
	if err != nil || !f.quoted {
		return val, err
	}
	switch q := val.(type) {
	case json.Number:
		return string(q), nil
	case bool:
		if q {
			return "true", nil
		}
		return "false", nil
	}
	return val, nil
}

// values compares two present values of one Go type at p.
func (c *Comparison) values(p fieldpath.Path, t *Type, l, r reflect.Value) error {
	if writesItself(l.Type()) {
		return c.leafOrConvert(p, t, l, r)
	}
	switch l.Kind() {
	case reflect.Pointer:
		if l.IsNil() && r.IsNil() {
			return nil
		}
		if l.IsNil() || r.IsNil() {
			return c.convert(p, t, l, r)
		}
		return c.values(p, t, l.Elem(), r.Elem())
	case reflect.Struct:
		return c.structs(p, t, l, r, "", "")
	case reflect.Map:
		if t.Kind != Map || t.Atomic || l.Type().Key().Kind() != reflect.String || l.Len() == 0 && r.Len() == 0 {
			return c.leafOrConvert(p, t, l, r)
		}
		if sameValue(l, r) {
			return nil
		}
		return c.maps(p, t, l, r)
	case reflect.Slice:
		if t.Kind != List || t.ListType != ListMap || l.Len() == 0 && r.Len() == 0 {
			return c.leafOrConvert(p, t, l, r)
		}
		if sameValue(l, r) {
			return nil // the usual case, cheaper than naming the elements
		}
		return c.items(p, t, l, r)
	case reflect.String:
		if l.String() == r.String() {
			return nil
		}
	case reflect.Bool:
		if l.Bool() == r.Bool() {
			return nil
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if l.Int() == r.Int() {
			return nil
		}
	default:
		return c.leafOrConvert(p, t, l, r)
	}
	if scalarFits(t, l.Kind()) {
		// two different scalars of a kind the schema takes: compare would
		// find them modified, without converting them first
		c.Modified.Insert(p)
		return nil
	}
	return c.convert(p, t, l, r)
}

// leafOrConvert: equal Go values write equal JSON, so nothing changed;
// otherwise the values decide.
func (c *Comparison) leafOrConvert(p fieldpath.Path, t *Type, l, r reflect.Value) error {
	if sameValue(l, r) {
		return nil
	}
	return c.convert(p, t, l, r)
}

// convert compares two present Go values by their JSON values.
func (c *Comparison) convert(p fieldpath.Path, t *Type, l, r reflect.Value) error {
	lv, err := reflectValue(l)
	if err != nil {
		return err
	}
	rv, err := reflectValue(r)
	if err != nil {
		return err
	}
	return c.compare(p, t, lv, true, rv, true)
}

// maps compares two non-empty maps with string keys key by key.
func (c *Comparison) maps(p fieldpath.Path, t *Type, l, r reflect.Value) error {
	if c.stringMapItems(p, t, l, r) { // string_maps.go
		return nil
	}
	iter := l.MapRange()
	for iter.Next() {
		cp := append(slices.Clip(p), fieldpath.Field(iter.Key().String()))
		rv := r.MapIndex(iter.Key())
		if rv.IsValid() {
			if err := c.values(cp, t.Elem, iter.Value(), rv); err != nil {
				return err
			}
			continue
		}
		if err := c.oneSide(cp, t.Elem, iter.Value(), true); err != nil {
			return err
		}
	}
	iter = r.MapRange()
	for iter.Next() {
		if l.MapIndex(iter.Key()).IsValid() {
			continue
		}
		cp := append(slices.Clip(p), fieldpath.Field(iter.Key().String()))
		if err := c.oneSide(cp, t.Elem, iter.Value(), false); err != nil {
			return err
		}
	}
	return nil
}

// oneSide records a value present only in the old (removed) or only in
// the new object, with everything below it.
func (c *Comparison) oneSide(p fieldpath.Path, t *Type, v reflect.Value, old bool) error {
	return c.only(p, t, v, old, "")
}

// only records v at p and everything below it as removed (old) or added,
// walking the Go value as compare walks a value against nothing: each
// path reached is a member, a list map's elements by key, and an atomic,
// empty or null value has nothing below it. What the walk is not sure of
// is converted and left to compare. omit is a field of v left out.
func (c *Comparison) only(p fieldpath.Path, t *Type, v reflect.Value, old bool, omit string) error {
	into := c.Added
	if old {
		into = c.Removed
	}
	if writesItself(v.Type()) {
		return c.convertOne(p, t, v, old)
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			return c.only(p, t, v.Elem(), old, omit)
		}
	case reflect.Struct:
		if t.Kind != Struct {
			return c.convertOne(p, t, v, old)
		}
		if !t.Atomic {
			for _, f := range fieldsOf(v.Type()) {
				fv, ok := presentField(v, f)
				if !ok || f.name == omit {
					continue
				}
				if f.quoted {
					return c.convertOne(p, t, v, old)
				}
				ct, _ := childType(t, f.name)
				cp := append(p, f.pe)
				if ct == nil {
					return errorAt(slices.Clone(cp), "field not declared in schema")
				}
				if err := c.only(cp, ct, fv, old, ""); err != nil {
					return err
				}
			}
		}
	case reflect.Map:
		if t.Kind != Map || v.Type().Key().Kind() != reflect.String {
			return c.convertOne(p, t, v, old)
		}
		if !t.Atomic {
			iter := v.MapRange()
			for iter.Next() {
				if err := c.only(append(p, fieldpath.Field(iter.Key().String())), t.Elem, iter.Value(), old, ""); err != nil {
					return err
				}
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			break // base64, a scalar
		}
		if t.Kind != List {
			return c.convertOne(p, t, v, old)
		}
		if v.Len() > 0 && t.ListType != ListAtomic {
			keys, ok := itemKeys(t, v)
			if !ok || t.ListType != ListMap {
				return c.convertOne(p, t, v, old)
			}
			for i, k := range keys {
				if err := c.only(append(p, k), t.Elem, v.Index(i), old, ""); err != nil {
					return err
				}
			}
		}
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
	default:
		return c.convertOne(p, t, v, old)
	}
	into.Insert(p)
	return nil
}

// convertOne is only for what the walk leaves to compare.
func (c *Comparison) convertOne(p fieldpath.Path, t *Type, v reflect.Value, old bool) error {
	val, err := reflectValue(v)
	if err != nil {
		return err
	}
	if old {
		return c.compare(p, t, val, true, nil, false)
	}
	return c.compare(p, t, nil, false, val, true)
}

// items compares two non-empty map lists element by element, matched by
// their keys. Elements that are not structs, lack their keys or repeat a
// key are left to compareItems, which knows what Kubernetes does there.
func (c *Comparison) items(p fieldpath.Path, t *Type, l, r reflect.Value) error {
	if handled, err := c.plainItems(p, t, l, r); handled { // plain_keys.go
		return err
	}
	lk, lok := itemKeys(t, l)
	rk, rok := itemKeys(t, r)
	if !lok || !rok {
		return c.convert(p, t, l, r)
	}
	at := make(map[string]int, len(lk))
	for i, k := range lk {
		at[elementKey(k)] = i
	}
	matched := make([]bool, len(lk))
	for j, k := range rk {
		ip := append(slices.Clip(p), k)
		i, ok := at[elementKey(k)]
		if !ok {
			if err := c.oneSide(ip, t.Elem, r.Index(j), false); err != nil {
				return err
			}
			continue
		}
		matched[i] = true
		if sameValue(l.Index(i), r.Index(j)) {
			continue
		}
		if err := c.values(ip, t.Elem, l.Index(i), r.Index(j)); err != nil {
			return err
		}
	}
	for i, k := range lk {
		if !matched[i] {
			ip := append(slices.Clip(p), k)
			if err := c.oneSide(ip, t.Elem, l.Index(i), true); err != nil {
				return err
			}
		}
	}
	return nil
}

// itemKeys names each element of a map list by its key fields, reading
// only those (listItemElement's rules, without making a map of them);
// false if an element is not a struct, has no key or repeats one.
func itemKeys(t *Type, s reflect.Value) ([]fieldpath.PathElement, bool) {
	out := make([]fieldpath.PathElement, 0, s.Len())
	var (
		elemType reflect.Type
		fields   []*jsonField // the element type's field for each of t.Keys
		seen     map[string]bool
	)
	for i := range s.Len() {
		e := s.Index(i)
		if e.Kind() == reflect.Pointer {
			if e.IsNil() {
				return nil, false
			}
			e = e.Elem()
		}
		if t.ListType != ListMap || e.Kind() != reflect.Struct || writesItself(e.Type()) {
			return nil, false
		}
		if e.Type() != elemType {
			elemType, fields = e.Type(), keyFieldsOf(e.Type(), t.Keys)
		}
		key := make([]fieldpath.KeyField, 0, len(t.Keys))
		for j, name := range t.Keys {
			if f := fields[j]; f != nil {
				if fv, ok := presentField(e, *f); ok {
					v, err := fieldValue(fv, true, *f, "")
					if err != nil {
						return nil, false
					}
					key = append(key, fieldpath.KeyField{Name: name, Value: v})
					continue
				}
			}
			if def, ok := t.KeyDefaults[name]; ok {
				key = append(key, fieldpath.KeyField{Name: name, Value: def})
			}
		}
		if len(key) == 0 {
			return nil, false
		}
		pe := fieldpath.KeyOf(key)
		if repeats(out, pe, &seen) {
			return nil, false
		}
		out = append(out, pe)
	}
	return out, true
}

// repeats reports whether pe names the same element as one of before, as
// elementKey spells them; short lists compare pairwise (elements that
// Compare apart are different), long ones keep a set of spellings.
func repeats(before []fieldpath.PathElement, pe fieldpath.PathElement, seen *map[string]bool) bool {
	const pairwise = 16
	if len(before) < pairwise {
		for _, b := range before {
			if b.Compare(pe) == 0 && elementKey(b) == elementKey(pe) {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(before))
		for _, b := range before {
			(*seen)[elementKey(b)] = true
		}
	}
	k := elementKey(pe)
	if (*seen)[k] {
		return true
	}
	(*seen)[k] = true
	return false
}

// keyFieldsOf is the field of struct type t for each of keys (nil where
// t has none), remembered per type and keys: a container has thirty
// fields and one key.
func keyFieldsOf(t reflect.Type, keys []string) []*jsonField {
	id := keyFieldsID{t: t}
	if len(keys) <= len(id.few) {
		copy(id.few[:], keys) // no string to build for the usual one to three keys
		id.n = len(keys)
	} else {
		id.keys = strings.Join(keys, ",")
	}
	if fs, ok := keyFieldsByType.Load(id); ok {
		return fs.([]*jsonField)
	}
	all := fieldsOf(t)
	fs := make([]*jsonField, len(keys))
	for j, name := range keys {
		for i := range all {
			if all[i].name == name {
				fs[j] = &all[i]
				break
			}
		}
	}
	keyFieldsByType.Store(id, fs)
	return fs
}

type keyFieldsID struct {
	t    reflect.Type
	few  [3]string
	n    int
	keys string // more than three, joined
}

// keyFieldsByType caches keyFieldsOf.
var keyFieldsByType sync.Map // keyFieldsID → []*jsonField

// sameValue is reflect.DeepEqual of two values of one type without boxing
// them (Interface copies a struct to the heap): equal Go values write
// equal JSON. Unexported fields (a Time's) are read too.
func sameValue(l, r reflect.Value) bool {
	switch l.Kind() {
	case reflect.Pointer, reflect.Interface:
		if l.Kind() == reflect.Pointer && l.Pointer() == r.Pointer() {
			return true
		}
		if l.IsNil() || r.IsNil() {
			return l.IsNil() == r.IsNil()
		}
		if l.Kind() == reflect.Interface && l.Elem().Type() != r.Elem().Type() {
			return false
		}
		return sameValue(l.Elem(), r.Elem())
	case reflect.Struct:
		for i := range l.NumField() {
			if !sameValue(l.Field(i), r.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if l.IsNil() != r.IsNil() || l.Len() != r.Len() {
			return false
		}
		fallthrough
	case reflect.Array:
		for i := range l.Len() {
			if !sameValue(l.Index(i), r.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if l.IsNil() != r.IsNil() || l.Len() != r.Len() {
			return false
		}
		if lm, rm, ok := stringMaps(l, r); ok { // string_maps.go
			return sameStringMaps(lm, rm)
		}
		iter := l.MapRange()
		for iter.Next() {
			rv := r.MapIndex(iter.Key())
			if !rv.IsValid() || !sameValue(iter.Value(), rv) {
				return false
			}
		}
		return true
	case reflect.String:
		return l.String() == r.String()
	case reflect.Bool:
		return l.Bool() == r.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return l.Int() == r.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return l.Uint() == r.Uint()
	case reflect.Float32, reflect.Float64:
		return l.Float() == r.Float()
	}
	// anything else (funcs, channels: not in API types) is not known equal
	return false
}
