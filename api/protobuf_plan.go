package api

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
)

// A protobuf plan is what the codec knows about one Go struct type: its
// fields that carry a `protobuf:"..."` tag, in ascending field number, each
// with how its value travels. It is read once per type from the struct tags
// (the same tags k8s.io/api carries, e.g. `protobuf:"bytes,1,opt,name=metadata"`)
// and cached; encoding and decoding then only walk the plan.
//
// Kubernetes has no such plan: go-to-protobuf generates generated.proto from
// these tags and gogo-protobuf generates a Marshal/Unmarshal per type
// (k8s.io/api/core/v1/generated.pb.go). The plan is that generator run at
// start-up, once per type, instead of at build time.

// protoKind says how one Go value (a field, an element, a map key or value)
// is written.
type protoKind uint8

const (
	protoVarint  protoKind = iota // bool and the integer kinds: wire type varint
	protoString                   // the string kinds: length-delimited UTF-8
	protoBytes                    // []byte: length-delimited
	protoMessage                  // a struct: a nested message with its own plan
	protoOwn                      // a type whose message is not its layout (protobuf_wellknown.go)
	protoDouble                   // float64: wire type fixed64, the IEEE 754 bits (a CRD schema's bounds)
)

// protoCardinality says how many values a field holds on the wire.
type protoCardinality uint8

const (
	protoSingle   protoCardinality = iota // a value field, written even when zero (proto2, non-nullable)
	protoPointer                          // a pointer field, written only when non-nil
	protoRepeated                         // a slice: one tagged entry per element, never packed
	protoMap                              // a map: one entry message {1 key, 2 value} per pair, sorted by key
)

// protoValue is how one Go value travels.
type protoValue struct {
	kind protoKind
	typ  reflect.Type
	msg  *protoPlan      // for protoMessage
	own  protoOwnMessage // for protoOwn
}

// wireType is the wire type the value is written with.
func (v protoValue) wireType() protowire.Type {
	switch v.kind {
	case protoVarint:
		return protowire.VarintType
	case protoDouble:
		return protowire.Fixed64Type
	}
	return protowire.BytesType
}

// protoField is one tagged field of a struct.
type protoField struct {
	name  string // the tag's name=, e.g. "metadata"; error paths use it
	num   protowire.Number
	index int // the field's index in the Go struct
	card  protoCardinality
	tag   []byte     // the field's key (number and wire type), ready to append
	value protoValue // the value, the element of a slice, or a map's value
	key   protoValue // a map's key (a string kind)

	// For maps only: the keys of the entry message's two fields, and the
	// type of a slice of values, for sorting the pairs.
	entryKeyTag, entryValueTag []byte
	valuesType                 reflect.Type
}

// protoPlan is the plan of one struct type.
type protoPlan struct {
	typ    reflect.Type
	fields []protoField // in ascending field number: the order gogo writes
	byNum  []int16      // field number → 1 + index into fields; 0 for no such field
}

// field returns the plan's field with number num, or nil.
func (p *protoPlan) field(num protowire.Number) *protoField {
	if num <= 0 || int(num) >= len(p.byNum) || p.byNum[num] == 0 {
		return nil
	}
	return &p.fields[p.byNum[num]-1]
}

// protoPlans caches a plan per struct type (reflect.Type → *protoPlan).
// It is the one package-level variable of the codec and holds only facts
// about Go types, as encoding/json's cache of struct fields does; plans
// never change once built, so readers need no lock.
var protoPlans sync.Map

// planFor returns the plan of struct type t, building it on first use.
func planFor(t reflect.Type) (*protoPlan, error) {
	if p, ok := protoPlans.Load(t); ok {
		return p.(*protoPlan), nil
	}
	building := map[reflect.Type]*protoPlan{}
	p, err := buildPlan(t, building)
	if err != nil {
		return nil, err
	}
	for bt, bp := range building {
		protoPlans.LoadOrStore(bt, bp)
	}
	return p, nil
}

// buildPlan builds the plan of t and of every struct type it reaches.
// building holds the plans under construction, so a type that contains
// itself (through a pointer or a slice) points at its own plan.
func buildPlan(t reflect.Type, building map[reflect.Type]*protoPlan) (*protoPlan, error) {
	if p, ok := protoPlans.Load(t); ok {
		return p.(*protoPlan), nil
	}
	if p, ok := building[t]; ok {
		return p, nil
	}
	p := &protoPlan{typ: t}
	building[t] = p
	maxNum := protowire.Number(0)
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, ok := sf.Tag.Lookup("protobuf")
		if !ok || tag == "-" {
			continue // TypeMeta, and anything else that is not on the wire
		}
		f, err := buildField(sf, tag, building)
		if err != nil {
			return nil, fmt.Errorf("protobuf plan of %s.%s: %w", t, sf.Name, err)
		}
		f.index = i
		p.fields = append(p.fields, f)
		maxNum = max(maxNum, f.num)
	}
	slices.SortFunc(p.fields, func(a, b protoField) int { return int(a.num) - int(b.num) })
	p.byNum = make([]int16, maxNum+1)
	for i, f := range p.fields {
		if p.byNum[f.num] != 0 {
			return nil, fmt.Errorf("protobuf plan of %s: field number %d used twice", t, f.num)
		}
		p.byNum[f.num] = int16(i + 1)
	}
	return p, nil
}

// buildField reads one struct tag, e.g. "bytes,11,rep,name=labels". Only
// the number and the name count: how the value travels follows from its Go
// type, as it does for go-to-protobuf, which generates generated.proto from
// the Go types. The tag's wire type and opt/rep are not always right in
// k8s.io/api (PodSpec.priority, an *int32 written as a varint, says
// "bytes"; PodSpec.tolerations, a slice, says "opt"), and our types carry
// the same tags.
func buildField(sf reflect.StructField, tag string, building map[reflect.Type]*protoPlan) (protoField, error) {
	if !sf.IsExported() {
		return protoField{}, fmt.Errorf("unexported field has a protobuf tag")
	}
	parts := strings.Split(tag, ",")
	if len(parts) < 3 || (parts[0] != "bytes" && parts[0] != "varint" && parts[0] != "fixed64") {
		return protoField{}, fmt.Errorf("protobuf tag %q: want bytes|varint|fixed64,number,opt|rep,name=...", tag)
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil || n < 1 || n > 1<<14 {
		return protoField{}, fmt.Errorf("protobuf tag %q: bad field number", tag)
	}
	f := protoField{num: protowire.Number(n), name: sf.Name}
	for _, p := range parts[3:] {
		if name, ok := strings.CutPrefix(p, "name="); ok {
			f.name = name
		}
	}

	t := sf.Type
	switch {
	case t.Kind() == reflect.Map:
		f.card = protoMap
		if f.key, err = valueOf(t.Key(), building); err != nil {
			return protoField{}, err
		}
		if f.key.kind != protoString {
			return protoField{}, fmt.Errorf("map key %s: only string keys are supported", t.Key())
		}
		f.value, err = valueOf(t.Elem(), building)
		f.entryKeyTag = protowire.AppendTag(nil, 1, protowire.BytesType)
		f.entryValueTag = protowire.AppendTag(nil, 2, f.value.wireType())
		f.valuesType = reflect.SliceOf(t.Elem())
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8:
		f.card = protoRepeated
		f.value, err = valueOf(t.Elem(), building)
	case t.Kind() == reflect.Pointer:
		f.card = protoPointer
		f.value, err = valueOf(t.Elem(), building)
	default:
		f.card = protoSingle
		f.value, err = valueOf(t, building)
	}
	if err != nil {
		return protoField{}, err
	}
	// A map entry is a message, so a map travels as bytes whatever its values.
	wire := f.value.wireType()
	if f.card == protoMap {
		wire = protowire.BytesType
	}
	f.tag = protowire.AppendTag(nil, f.num, wire)
	return f, nil
}

// valueOf says how a value of type t travels.
func valueOf(t reflect.Type, building map[reflect.Type]*protoPlan) (protoValue, error) {
	v := protoValue{typ: t}
	if own, ok := ownMessageOf(t); ok {
		v.kind, v.own = protoOwn, own
		return v, nil
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int32, reflect.Int64, reflect.Uint32, reflect.Uint64:
		v.kind = protoVarint
	case reflect.String:
		v.kind = protoString
	case reflect.Float64:
		v.kind = protoDouble
	case reflect.Slice:
		if t.Elem().Kind() != reflect.Uint8 {
			return v, fmt.Errorf("%s: a slice of slices has no protobuf form", t)
		}
		v.kind = protoBytes
	case reflect.Struct:
		v.kind = protoMessage
		var err error
		if v.msg, err = buildPlan(t, building); err != nil {
			return v, err
		}
	default:
		return v, fmt.Errorf("%s has no protobuf form here", t)
	}
	return v, nil
}
