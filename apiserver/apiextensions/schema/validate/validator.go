package validate

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema"
)

// ValidateValue checks obj, the whole custom resource, against the schema's
// types and value validations, and reports every violation as Kubernetes
// does (its kube-openapi validator, converted by
// kubeOpenAPIResultToFieldErrors): the field paths join properties and map
// keys with "." and index items with [i], and the messages read
// "spec.replicas in body should be less than or equal to 10".
func (v *Validator) ValidateValue(obj any) field.ErrorList {
	return v.ValidateValueAt("", obj)
}

// ValidateValueAt validates x with its error fields below base (CRD
// validation checks a default at ".../properties[a].default"). The
// messages name x relative to base, as Kubernetes' do.
func (v *Validator) ValidateValueAt(base field.Path, x any) field.ErrorList {
	if v == nil || v.root == nil {
		return nil
	}
	w := &walk{base: base}
	w.value(v.rootNd, x, "")
	return w.errs
}

type walk struct {
	base field.Path
	errs field.ErrorList
}

// fieldPath turns kube-openapi's name of a value into the error's field:
// the leading "." of a root property dropped, below the base; the root
// itself with no base prints as Kubernetes prints a nil field.Path.
func (w *walk) fieldPath(name string) field.Path {
	name = strings.TrimPrefix(name, ".")
	switch {
	case name == "" && w.base == "":
		return rootPath
	case name == "":
		return w.base
	}
	return w.base.Child(name)
}

// rootPath is how Kubernetes prints the nil path of errors about the whole
// object (the junctor messages): "<nil>".
const rootPath field.Path = "<nil>"

func (w *walk) add(e *field.Error) { w.errs = append(w.errs, e) }

// value runs the validators kube-openapi runs, in its order: type,
// junctors, string, format, number, array, enum, object.
func (w *walk) value(n *node, x any, path string) {
	if n == nil {
		return
	}
	if x == nil {
		if len(n.typ) > 0 && !n.nullable {
			w.add(field.TypeInvalid(w.fieldPath(path), "null", typeFail(path, strings.Join(n.typ, ","), "null")))
		}
		if n.vv != nil && len(n.vv.Enum) > 0 {
			w.enum(n.vv.Enum, x, path)
		}
		return
	}
	if len(n.typ) > 0 {
		if got := jsonType(x); !typeAllows(n.typ, got, x) {
			w.add(field.TypeInvalid(w.fieldPath(path), got, typeFail(path, strings.Join(n.typ, ","), got)))
		}
	}
	vv := n.vv
	w.junctors(n, x, path)
	switch t := x.(type) {
	case string:
		w.str(n, t, path)
		if n.format != "" && !validFormat(n.format, t) {
			w.add(field.TypeInvalid(w.fieldPath(path), t, typeFail(path, n.format, t)))
		}
	case int64, float64:
		w.numberRange(n, x, path)
		w.number(vv, x, path)
	case []any:
		w.array(n, vv, t, path)
	}
	if len(vv.Enum) > 0 {
		w.enum(vv.Enum, x, path)
	}
	if m, ok := x.(map[string]any); ok {
		w.object(n, vv, m, path)
	}
}

func typeFail(path, typ, got string) string {
	return fmt.Sprintf("%s in body must be of type %s: %q", path, typ, got)
}

// jsonType is the JSON Schema type of an unstructured value.
func jsonType(x any) string {
	switch x.(type) {
	case string:
		return "string"
	case int64:
		return "integer"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", x)
}

// typeAllows: an integral number is an integer, and an integer is a number.
func typeAllows(allowed []string, got string, x any) bool {
	for _, t := range allowed {
		if t == got || (t == "number" && got == "integer") {
			return true
		}
		if t == "integer" && got == "number" {
			if _, isInt, _ := schema.Number(x); isInt {
				return true
			}
		}
	}
	return false
}

func (w *walk) str(nd *node, s, path string) {
	vv := nd.vv
	// kube-openapi stops at the first failing string check.
	n := int64(utf8.RuneCountInString(s))
	switch {
	case vv.MaxLength != nil && n > *vv.MaxLength:
		w.add(field.TooLong(w.fieldPath(path), int(*vv.MaxLength)))
	case vv.MinLength != nil && n < *vv.MinLength:
		w.add(field.Invalid(w.fieldPath(path), s, fmt.Sprintf("%s in body should be at least %d chars long", path, *vv.MinLength)))
	case nd.pattern != nil && !nd.pattern.MatchString(s):
		w.add(field.Invalid(w.fieldPath(path), s, fmt.Sprintf("%s in body should match '%s'", path, vv.Pattern)))
	}
}

// numberRange: an int32 (or float) format bounds the value. Kubernetes'
// message is a plain error kube-openapi raises, which it reports at the
// nil path with an empty value.
func (w *walk) numberRange(n *node, x any, path string) {
	if len(n.typ) != 1 || n.numberFormat == "" {
		return
	}
	f, isInt, _ := schema.Number(x)
	fits := true
	switch {
	case n.typ[0] == "integer" && n.numberFormat == "int32":
		fits = isInt && f >= math.MinInt32 && f <= math.MaxInt32
	case n.typ[0] == "number" && (n.numberFormat == "float" || n.numberFormat == "float32"):
		fits = math.Abs(f) <= math.MaxFloat32
	default:
		return
	}
	if !fits {
		w.add(field.Invalid(w.rootField(), "", fmt.Sprintf("Checked value must be of type %s with format %s in %s", n.typ[0], n.numberFormat, path)))
	}
}

func (w *walk) number(vv *schema.ValueValidation, x any, path string) {
	f, _, _ := schema.Number(x)
	i, isInt64 := x.(int64)
	if m := vv.MultipleOf; m != nil && *m > 0 {
		if isInt64 && *m == math.Trunc(*m) {
			if i%int64(*m) != 0 {
				w.add(field.Invalid(w.fieldPath(path), x, fmt.Sprintf("%s in body should be a multiple of %v", path, int64(*m))))
			}
		} else if q := f / *m; q != math.Trunc(q) {
			w.add(field.Invalid(w.fieldPath(path), x, fmt.Sprintf("%s in body should be a multiple of %v", path, *m)))
		}
	}
	// An integer is compared with the bound truncated to an integer, as
	// kube-openapi's MaximumNativeType does.
	if m := vv.Minimum; m != nil {
		bound := any(*m)
		below := (!vv.ExclusiveMinimum && f < *m) || (vv.ExclusiveMinimum && f <= *m)
		if isInt64 {
			b := int64(*m)
			bound = b
			below = (!vv.ExclusiveMinimum && i < b) || (vv.ExclusiveMinimum && i <= b)
		}
		if below {
			word := "greater than or equal to"
			if vv.ExclusiveMinimum {
				word = "greater than"
			}
			w.add(field.Invalid(w.fieldPath(path), x, fmt.Sprintf("%s in body should be %s %v", path, word, bound)))
		}
	}
	if m := vv.Maximum; m != nil {
		bound := any(*m)
		above := (!vv.ExclusiveMaximum && f > *m) || (vv.ExclusiveMaximum && f >= *m)
		if isInt64 {
			b := int64(*m)
			bound = b
			above = (!vv.ExclusiveMaximum && i > b) || (vv.ExclusiveMaximum && i >= b)
		}
		if above {
			word := "less than or equal to"
			if vv.ExclusiveMaximum {
				word = "less than"
			}
			w.add(field.Invalid(w.fieldPath(path), x, fmt.Sprintf("%s in body should be %s %v", path, word, bound)))
		}
	}
}

func (w *walk) array(n *node, vv *schema.ValueValidation, list []any, path string) {
	if n.items != nil {
		for i, e := range list {
			w.value(n.items, e, path+"["+strconv.Itoa(i)+"]")
		}
	}
	size := int64(len(list))
	if vv.MinItems != nil && size < *vv.MinItems {
		w.add(field.Invalid(w.fieldPath(path), size, fmt.Sprintf("%s in body should have at least %d items", path, *vv.MinItems)))
	}
	if vv.MaxItems != nil && size > *vv.MaxItems {
		w.add(field.TooMany(w.fieldPath(path), int(size), int(*vv.MaxItems)))
	}
	if vv.UniqueItems {
		for i := range list {
			for j := range i {
				if reflect.DeepEqual(list[i], list[j]) {
					w.add(field.Invalid(w.fieldPath(path), "", fmt.Sprintf("%s in body shouldn't contain duplicates", path)))
					return
				}
			}
		}
	}
}

func (w *walk) enum(enum []any, x any, path string) {
	for _, e := range enum {
		if equalJSON(e, x) {
			return
		}
	}
	values := make([]string, len(enum))
	for i, e := range enum {
		if s, ok := e.(string); ok {
			values[i] = s
		} else {
			values[i] = compactJSON(e)
		}
	}
	w.add(field.NotSupported(w.fieldPath(path), x, values))
}

func (w *walk) object(n *node, vv *schema.ValueValidation, m map[string]any, path string) {
	size := int64(len(m))
	if vv.MinProperties != nil && size < *vv.MinProperties {
		w.add(field.Invalid(w.fieldPath(path), size, fmt.Sprintf("%s in body should have at least %d properties", path, *vv.MinProperties)))
	}
	if vv.MaxProperties != nil && size > *vv.MaxProperties {
		w.add(field.TooMany(w.fieldPath(path), int(size), int(*vv.MaxProperties)))
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		prop := n.properties[k]
		child := path + "." + k
		if path == "" {
			child = k
		}
		switch {
		case prop != nil:
			w.value(prop, m[k], child)
		case n.additionalForbidden:
			w.add(field.Invalid(w.fieldPath(path), k, fmt.Sprintf("%s.%s in body is a forbidden property", path, k)))
		case n.additional != nil:
			w.value(n.additional, m[k], path+"."+k)
		}
	}
	for _, r := range vv.Required {
		if _, ok := m[r]; !ok {
			w.add(field.Required(w.fieldPath(path+"."+r), ""))
		}
	}
}
