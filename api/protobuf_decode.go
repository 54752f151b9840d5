package api

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// Decoding reads fields off the wire one at a time and stores each into
// the struct field its number names. It is stricter than gogo's generated
// Unmarshal, which skips field numbers it does not know: here an unknown
// number, a wire type that does not fit the field, or a length that runs
// past the message is an error naming the field's path, because a field
// kubeloop cannot read would otherwise vanish from an acknowledged write.
//
// Hostile input cannot make it allocate more than linearly in its length:
// protobuf carries no counts to preallocate from, every element or map
// entry costs at least two bytes of input, every length is checked against
// the bytes that remain, and nesting deeper than maxProtoDepth is refused
// (our types nest a dozen levels at most; the limit matters only for a
// type that contains itself).

// maxProtoDepth bounds how deeply messages may nest.
const maxProtoDepth = 100

// wireField is one field read off the wire.
type wireField struct {
	num    protowire.Number
	typ    protowire.Type
	varint uint64 // for VarintType, and the bits of a Fixed64Type
	bytes  []byte // for BytesType; aliases the input
}

// nextField reads the field at the start of b and returns it with the rest
// of b. Groups, deprecated since proto2 and used by no Kubernetes type, are
// an error; so is a fixed32 field, since no Kubernetes field has one
// (fixed64 carries the doubles of a CRD schema).
func nextField(b []byte) (wireField, []byte, error) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return wireField{}, nil, fmt.Errorf("malformed field key: %w", wireError(n))
	}
	f := wireField{num: num, typ: typ}
	b = b[n:]
	switch typ {
	case protowire.VarintType:
		f.varint, n = protowire.ConsumeVarint(b)
	case protowire.BytesType:
		f.bytes, n = protowire.ConsumeBytes(b)
	case protowire.Fixed64Type:
		f.varint, n = protowire.ConsumeFixed64(b)
	default:
		return f, nil, fmt.Errorf("field %d has wire type %s, which no Kubernetes field uses", num, wireTypeName(typ))
	}
	if n < 0 {
		return f, nil, fmt.Errorf("field %d: %w", num, wireError(n))
	}
	return f, b[n:], nil
}

// wireError describes a protowire parse failure. protowire's own messages
// start with a "proto:" that is deliberately unstable (it varies its
// spacing); ours are part of the apiserver's answers, so they are kept
// stable.
func wireError(n int) error {
	err := protowire.ParseError(n)
	if err == io.ErrUnexpectedEOF {
		return err
	}
	msg := strings.TrimPrefix(err.Error(), "proto:")
	return errors.New(strings.TrimLeft(msg, " \u00a0"))
}

func wireTypeName(t protowire.Type) string {
	switch t {
	case protowire.VarintType:
		return "varint"
	case protowire.BytesType:
		return "bytes"
	case protowire.Fixed32Type:
		return "fixed32"
	case protowire.Fixed64Type:
		return "fixed64"
	case protowire.StartGroupType, protowire.EndGroupType:
		return "group"
	}
	return strconv.Itoa(int(t))
}

// typeName is t as a reader of an error knows it: api.List[api.Pod,*api.Pod]
// rather than with the module path in every type argument.
func typeName(t reflect.Type) string {
	return strings.ReplaceAll(t.String(), "kubeloop/", "")
}

// protoDecodeError is a decoding failure and the path of the field it
// happened in, e.g. spec.containers[0].ports[1].containerPort. The path is
// collected innermost first as the error returns through each message.
type protoDecodeError struct {
	path []string // innermost first
	msg  string
}

func (e *protoDecodeError) Error() string {
	if len(e.path) == 0 {
		return e.msg
	}
	p := slices.Clone(e.path)
	slices.Reverse(p)
	s := p[0]
	for _, part := range p[1:] {
		if part == "" || part[0] != '[' {
			s += "."
		}
		s += part
	}
	return s + ": " + e.msg
}

// atPath adds one path element (a field name, or "[i]") to err.
func atPath(err error, part string) error {
	e, ok := err.(*protoDecodeError)
	if !ok {
		e = &protoDecodeError{msg: err.Error()}
	}
	e.path = append(e.path, part)
	return e
}

// decodeFields reads the message b into struct value v, which has plan p.
// Fields merge into what v holds, as in every protobuf implementation: a
// repeated field appends, a message field seen twice merges.
func (p *protoPlan) decodeFields(b []byte, v reflect.Value, depth int) error {
	if depth > maxProtoDepth {
		return fmt.Errorf("messages nested more than %d deep", maxProtoDepth)
	}
	for len(b) > 0 {
		wf, rest, err := nextField(b)
		if err != nil {
			return err
		}
		b = rest
		f := p.field(wf.num)
		if f == nil {
			return fmt.Errorf("unknown field number %d in %s", wf.num, typeName(p.typ))
		}
		fv := v.Field(f.index)
		if f.card == protoRepeated && f.value.kind == protoMessage && fv.Cap() == 0 {
			presizeRepeated(fv, f.num, b) // protobuf_fast.go
		}
		if err := f.decode(wf, fv, depth); err != nil {
			return atPath(err, f.name)
		}
	}
	return nil
}

// decode stores one wire field into fv, the struct field it names.
func (f *protoField) decode(wf wireField, fv reflect.Value, depth int) error {
	// A repeated varint may also arrive packed (all elements in one
	// length-delimited field): gogo never writes that, but proto2 parsers
	// must accept it.
	packed := f.card == protoRepeated && f.value.kind == protoVarint && wf.typ == protowire.BytesType
	want := f.value.wireType()
	if f.card == protoMap {
		want = protowire.BytesType
	}
	if wf.typ != want && !packed {
		return fmt.Errorf("wire type %s, want %s", wireTypeName(wf.typ), wireTypeName(want))
	}
	switch f.card {
	case protoSingle:
		return decodeValue(&f.value, wf, fv, depth)
	case protoPointer:
		if fv.IsNil() {
			fv.Set(reflect.New(f.value.typ))
		}
		return decodeValue(&f.value, wf, fv.Elem(), depth)
	case protoRepeated:
		if packed {
			return decodePacked(wf.bytes, fv)
		}
		i := fv.Len()
		fv.Grow(1)
		fv.SetLen(i + 1)
		elem := fv.Index(i)
		elem.SetZero()
		if err := decodeValue(&f.value, wf, elem, depth); err != nil {
			return atPath(err, "["+strconv.Itoa(i)+"]")
		}
		return nil
	default:
		return decodeMapEntry(f, wf.bytes, fv, depth)
	}
}

// decodeValue stores one value into v.
func decodeValue(pv *protoValue, wf wireField, v reflect.Value, depth int) error {
	switch pv.kind {
	case protoVarint:
		setVarint(v, wf.varint)
	case protoDouble:
		v.SetFloat(math.Float64frombits(wf.varint))
	case protoString:
		v.SetString(string(wf.bytes))
	case protoBytes:
		// Like gogo, a present field is never nil, even when empty.
		v.SetBytes(append([]byte{}, wf.bytes...))
	case protoMessage:
		return pv.msg.decodeFields(wf.bytes, v, depth+1)
	default: // protoOwn
		return pv.own.unmarshal(wf.bytes, v)
	}
	return nil
}

// setVarint stores x into a bool or integer. Integers narrower than 64 bits
// keep the low bits, as gogo's generated code and the protobuf spec do.
func setVarint(v reflect.Value, x uint64) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(x != 0)
	case reflect.Int32:
		v.SetInt(int64(int32(x)))
	case reflect.Int64:
		v.SetInt(int64(x))
	case reflect.Uint32:
		v.SetUint(uint64(uint32(x)))
	default:
		v.SetUint(x)
	}
}

// decodePacked appends the varints packed into b to the slice fv.
func decodePacked(b []byte, fv reflect.Value) error {
	for len(b) > 0 {
		x, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return fmt.Errorf("packed element %d: %w", fv.Len(), wireError(n))
		}
		b = b[n:]
		i := fv.Len()
		fv.Grow(1)
		fv.SetLen(i + 1)
		setVarint(fv.Index(i), x)
	}
	return nil
}

// decodeMapEntry reads one entry message {1 key, 2 value} into the map fv.
// A missing key or value is the zero value, as in gogo.
func decodeMapEntry(f *protoField, b []byte, fv reflect.Value, depth int) error {
	if fv.IsNil() {
		fv.Set(reflect.MakeMap(fv.Type()))
	}
	key := reflect.New(f.key.typ).Elem()
	value := reflect.New(f.value.typ).Elem()
	if f.value.kind == protoBytes {
		value.SetBytes([]byte{})
	}
	for len(b) > 0 {
		wf, rest, err := nextField(b)
		if err != nil {
			return err
		}
		b = rest
		switch {
		case wf.num == 1 && wf.typ == protowire.BytesType:
			key.SetString(string(wf.bytes))
		case wf.num == 2 && wf.typ == f.value.wireType():
			if err := decodeValue(&f.value, wf, value, depth); err != nil {
				return atPath(err, "["+strconv.Quote(key.String())+"]")
			}
		case wf.num == 1 || wf.num == 2:
			return fmt.Errorf("map entry field %d has wire type %s", wf.num, wireTypeName(wf.typ))
		default:
			return fmt.Errorf("unknown field number %d in a map entry", wf.num)
		}
	}
	fv.SetMapIndex(key, value)
	return nil
}
