package deployment

// Skip on a first reading: this file only makes pod-template-hash values
// equal to kube-controller-manager's. Any deterministic dump of the
// template would make the controller behave the same (ReplicaSets are
// matched to templates by equalIgnoreHash, never by hash).
//
// Kubernetes hashes a template by printing the Go value with go-spew
// (ConfigState{SortKeys, SpewKeys, DisableMethods}, verb "%#v") into the
// hasher. That text names the Go types of k8s.io/api ("(v1.PodSpec)",
// "(*int64)<nil>", "(types.UID)"), so hashDumper walks our types the way
// spew's formatState walks theirs (go-spew format.go, v1.1.1) and writes
// k8s.io/api's type names instead of ours. resource.Quantity is a struct
// there (int64Amount, infDecAmount, cached string, Format) and a string
// here: quantityForHash rebuilds the struct ParseQuantity would make.

import (
	"io"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"kubeloop/api"
)

// dumpForHash writes the spew "%#v" text of *template to w.
func dumpForHash(w io.Writer, template *api.PodTemplateSpec) {
	d := &hashDumper{w: w}
	d.format(reflect.ValueOf(template).Elem(), "")
}

// hashDumper mirrors spew's formatState with the '#' flag. ignoreNextType
// is the same quirky state: set before slice elements, map keys and values
// and pointer targets, so that their types are not printed.
type hashDumper struct {
	w              io.Writer
	ignoreNextType bool
}

func (d *hashDumper) write(s string) { _, _ = io.WriteString(d.w, s) }

// kubeFieldTypes names the fields whose Go type is a plain string here but
// a named type in k8s.io/api or apimachinery
// (conformance/deployment_hash_test.go lists the differences of the two
// type trees and fails when they no longer match this table).
var kubeFieldTypes = map[string]string{
	"ObjectMeta.UID":                     "types.UID",
	"OwnerReference.UID":                 "types.UID",
	"Container.TerminationMessagePolicy": "v1.TerminationMessagePolicy",
	"PodSpec.DNSPolicy":                  "v1.DNSPolicy",
}

// kubeTypeNames maps our named types to theirs where the name differs;
// every other api type T is "v1.T" (core/v1 and meta/v1 are both "v1").
var kubeTypeNames = map[string]string{
	"IntOrString":     "intstr.IntOrString",
	"IntOrStringType": "intstr.Type",
	"Quantity":        "resource.Quantity",
}

var apiPkgPath = reflect.TypeFor[api.Pod]().PkgPath()

// kubeTypeString is what reflect.Type.String() says of k8s.io/api's
// counterpart of t.
func kubeTypeString(t reflect.Type) string {
	if t.Name() != "" {
		if t.PkgPath() != apiPkgPath {
			return t.String()
		}
		if n, ok := kubeTypeNames[t.Name()]; ok {
			return n
		}
		return "v1." + t.Name()
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + kubeTypeString(t.Elem())
	case reflect.Slice:
		return "[]" + kubeTypeString(t.Elem())
	case reflect.Array:
		return "[" + strconv.Itoa(t.Len()) + "]" + kubeTypeString(t.Elem())
	case reflect.Map:
		return "map[" + kubeTypeString(t.Key()) + "]" + kubeTypeString(t.Elem())
	}
	return t.String()
}

// format is formatState.format; typeName, when not empty, replaces the
// type spew would print (a field whose k8s type is named differently).
func (d *hashDumper) format(v reflect.Value, typeName string) {
	if !v.IsValid() {
		d.write("<invalid>")
		return
	}
	if v.Kind() == reflect.Pointer {
		d.formatPtr(v, typeName)
		return
	}
	if typeName == "" {
		typeName = kubeTypeString(v.Type())
	}
	if !d.ignoreNextType {
		d.write("(" + typeName + ")")
	}
	d.ignoreNextType = false

	if v.Type() == reflect.TypeFor[api.Quantity]() {
		d.write(quantityForHash(api.Quantity(v.String())))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		d.write(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		d.write(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		d.write(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32:
		d.write(strconv.FormatFloat(v.Float(), 'g', -1, 32))
	case reflect.Float64:
		d.write(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case reflect.String:
		d.write(v.String())
	case reflect.Slice:
		if v.IsNil() {
			d.write("<nil>")
			return
		}
		fallthrough
	case reflect.Array:
		d.write("[")
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				d.write(" ")
			}
			d.ignoreNextType = true
			d.format(v.Index(i), "")
		}
		d.write("]")
	case reflect.Map:
		if v.IsNil() {
			d.write("<nil>")
			return
		}
		d.write("map[")
		keys := v.MapKeys()
		// SortKeys: our maps are all keyed by strings.
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for i, k := range keys {
			if i > 0 {
				d.write(" ")
			}
			d.ignoreNextType = true
			d.format(k, "")
			d.write(":")
			d.ignoreNextType = true
			d.format(v.MapIndex(k), "")
		}
		d.write("]")
	case reflect.Struct:
		d.write("{")
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			if i > 0 {
				d.write(" ")
			}
			f := t.Field(i)
			d.write(f.Name + ":")
			d.format(v.Field(i), kubeFieldTypes[t.Name()+"."+f.Name])
		}
		d.write("}")
	default:
		// Interfaces, channels and funcs do not occur in pod templates.
		d.write("<" + v.Kind().String() + ">")
	}
}

// formatPtr is formatState.formatPtr without cycle detection (API objects
// are trees).
func (d *hashDumper) formatPtr(v reflect.Value, typeName string) {
	if v.IsNil() && d.ignoreNextType {
		d.write("<nil>")
		return
	}
	if typeName == "" {
		typeName = kubeTypeString(v.Type())
	}
	if v.IsNil() {
		d.write("(" + typeName + ")<nil>")
		return
	}
	if !d.ignoreNextType {
		d.write("(" + typeName + ")")
	} else {
		d.write("<*>")
	}
	d.ignoreNextType = true
	d.format(v.Elem(), strings.TrimPrefix(typeName, "*"))
}

// quantityForHash is the body spew prints for the resource.Quantity that
// ParseQuantity(q) returns: {i:{value scale} d:{Dec} s:cached Format}.
// ParseQuantity keeps the string only when it is already canonical.
// Quantities outside int64 (ParseQuantity's inf.Dec path, rare in pod
// templates) are written with their text in the d field: deterministic,
// but not Kubernetes' hash.
func quantityForHash(q api.Quantity) string {
	value, scale, format, cached, ok := parseQuantityForHash(string(q))
	if !ok {
		return "{i:(resource.int64Amount){value:(int64)0 scale:(resource.Scale)0} d:(resource.infDecAmount){Dec:(*inf.Dec)" +
			string(q) + "} s:(string) Format:(resource.Format)}"
	}
	return "{i:(resource.int64Amount){value:(int64)" + strconv.FormatInt(value, 10) +
		" scale:(resource.Scale)" + strconv.Itoa(int(scale)) +
		"} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)" + cached +
		" Format:(resource.Format)" + format + "}"
}
