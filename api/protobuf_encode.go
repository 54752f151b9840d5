package api

import (
	"math"
	"reflect"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// Encoding walks a plan and appends to one growing buffer, front to back.
// A nested message's length comes before its bytes but is known only after
// them, so appendNested reserves one byte for it, writes the message, and
// if the length needs more than one byte (128 bytes or more) moves the
// message up to make room. Each byte is so moved at most once per enclosing
// message of 128 bytes or more, a handful of times for a Pod; the
// benchmarks in protobuf_bench_test.go show the whole encode still costs a
// fraction of JSON's.
//
// gogo-protobuf instead computes every message's Size first and then writes
// the buffer back to front (MarshalToSizedBuffer in generated.pb.go); the
// bytes are the same.

// appendFields appends the fields of struct value v, which has plan p, in
// ascending field number.
func (p *protoPlan) appendFields(b []byte, v reflect.Value) []byte {
	for i := range p.fields {
		f := &p.fields[i]
		fv := v.Field(f.index)
		switch f.card {
		case protoSingle:
			// gogo writes non-nullable fields even when zero, except a nil
			// []byte ("if m.Raw != nil").
			if f.value.kind == protoBytes && fv.IsNil() {
				continue
			}
			b = append(b, f.tag...)
			b = appendValue(b, &f.value, fv)
		case protoPointer:
			if fv.IsNil() {
				continue
			}
			b = append(b, f.tag...)
			b = appendValue(b, &f.value, fv.Elem())
		case protoRepeated:
			for j := range fv.Len() {
				start := len(b)
				b = append(b, f.tag...)
				b = appendValue(b, &f.value, fv.Index(j))
				if j == 0 {
					b = growForRest(b, len(b)-start, fv.Len()-1) // protobuf_fast.go
				}
			}
		case protoMap:
			b = appendMap(b, f, fv)
		}
	}
	return b
}

// appendValue appends one value: a varint, or a length and its bytes.
func appendValue(b []byte, pv *protoValue, v reflect.Value) []byte {
	switch pv.kind {
	case protoVarint:
		return protowire.AppendVarint(b, varintOf(v))
	case protoString:
		return protowire.AppendString(b, v.String())
	case protoBytes:
		return protowire.AppendBytes(b, v.Bytes())
	case protoDouble:
		return protowire.AppendFixed64(b, math.Float64bits(v.Float()))
	case protoMessage:
		start := len(b)
		b = append(b, 0)
		return closeNested(pv.msg.appendFields(b, v), start)
	default: // protoOwn
		start := len(b)
		b = append(b, 0)
		return closeNested(pv.own.append(b, v), start)
	}
}

// varintOf is the varint a bool or integer is written as. A negative int32
// is sign-extended to 64 bits, so it takes ten bytes, as in every protobuf
// implementation.
func varintOf(v reflect.Value) uint64 {
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			return 1
		}
		return 0
	case reflect.Int32, reflect.Int64:
		return uint64(v.Int())
	default:
		return v.Uint()
	}
}

// closeNested writes the length of the message that starts after the byte
// reserved at b[start], moving the message up if the length needs more than
// that byte.
func closeNested(b []byte, start int) []byte {
	n := len(b) - start - 1
	if n < 0x80 {
		b[start] = byte(n)
		return b
	}
	extra := protowire.SizeVarint(uint64(n)) - 1
	b = slices.Grow(b, extra)[:len(b)+extra]
	copy(b[start+1+extra:], b[start+1:len(b)-extra])
	protowire.AppendVarint(b[start:start], uint64(n))
	return b
}

// appendMap appends one entry message per pair, {1 key, 2 value}, in
// ascending key order as gogo does (sort.Strings over the keys), so equal
// maps encode to equal bytes. The pairs are copied into a scratch slice
// first: reflect's map iterator hands them out in random order.
func appendMap(b []byte, f *protoField, m reflect.Value) []byte {
	n := m.Len()
	if n == 0 {
		return b
	}
	if out, ok := appendKnownMap(b, f, m); ok { // protobuf_maps.go
		return out
	}
	return appendMapByReflect(b, f, m)
}

// appendMapByReflect is appendMap for any map type.
func appendMapByReflect(b []byte, f *protoField, m reflect.Value) []byte {
	n := m.Len()
	keys := make([]string, 0, n)
	values := reflect.MakeSlice(f.valuesType, n, n)
	order := make([]int, n)
	key := reflect.New(f.key.typ).Elem()
	iter := m.MapRange()
	for i := 0; iter.Next(); i++ {
		key.SetIterKey(iter)
		keys = append(keys, key.String())
		values.Index(i).SetIterValue(iter)
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return strings.Compare(keys[x], keys[y]) })
	for _, i := range order {
		b = append(b, f.tag...)
		start := len(b)
		b = append(b, 0)
		b = append(b, f.entryKeyTag...)
		b = protowire.AppendString(b, keys[i])
		v := values.Index(i)
		// gogo writes a []byte value only when it is not nil.
		if f.value.kind != protoBytes || !v.IsNil() {
			b = append(b, f.entryValueTag...)
			b = appendValue(b, &f.value, v)
		}
		b = closeNested(b, start)
	}
	return b
}
