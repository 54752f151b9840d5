package api

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// Kubernetes' protobuf wire format, the one client-go's typed clients and
// controller-runtime speak by default.
//
// A bare message (MarshalProto, UnmarshalProto) is what k8s.io/api's
// generated Marshal writes for one object: its tagged fields in ascending
// number, byte for byte. A body (EncodeProtobuf, DecodeProtobuf) is that
// message wrapped the way the apiserver sends it: the four bytes "k8s\x00",
// then a runtime.Unknown message
//
//	1 typeMeta        {1 apiVersion, 2 kind}
//	2 raw             the object's message
//	3 contentEncoding always "" (written anyway)
//	4 contentType     always "" (written anyway)
//
// Kubernetes: staging/src/k8s.io/apimachinery/pkg/runtime/serializer/
// protobuf/protobuf.go (Serializer.Encode and Decode) and pkg/runtime/
// types_proto.go (Unknown.NestedMarshalTo), v1.37.2. The per-type messages
// are gogo-protobuf's generated.pb.go; here one codec reads each type's
// struct tags instead (protobuf_plan.go).

// ContentTypeProtobuf is Kubernetes' protobuf media type.
const ContentTypeProtobuf = "application/vnd.kubernetes.protobuf"

// ProtobufPrefix starts every Kubernetes protobuf body (but not a bare
// message, nor a watch frame).
const ProtobufPrefix = "k8s\x00"

// MarshalProto returns v's protobuf message, exactly the bytes k8s.io/api's
// Marshal writes for the same object. v is a struct with protobuf tags (or
// a pointer to one) or a type with its own protobuf form (Time, Quantity).
func MarshalProto(v any) ([]byte, error) { return AppendProto(nil, v) }

// AppendProto appends v's protobuf message to b.
func AppendProto(b []byte, v any) ([]byte, error) {
	rv, plan, own, err := protoRoot(v)
	if err != nil {
		return b, err
	}
	if plan == nil {
		return own.append(b, rv), nil
	}
	return plan.appendFields(b, rv), nil
}

// UnmarshalProto reads the protobuf message b into v, a non-nil pointer,
// which it first resets to its zero value. A field number v's type does not
// have, a wrong wire type or a bad length is an error naming the field.
func UnmarshalProto(b []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("protobuf: decoding needs a non-nil pointer, not %T", v)
	}
	rv, plan, own, err := protoRoot(v)
	if err != nil {
		return err
	}
	rv.SetZero()
	if plan == nil {
		err = own.unmarshal(b, rv)
	} else {
		err = plan.decodeFields(b, rv, 0)
	}
	if err != nil {
		return fmt.Errorf("decoding protobuf %s: %w", typeName(rv.Type()), err)
	}
	return nil
}

// protoRoot returns v as an addressable value, with its plan, or with a
// nil plan and its own methods when the type writes its own message.
func protoRoot(v any) (reflect.Value, *protoPlan, protoOwnMessage, error) {
	var own protoOwnMessage
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return rv, nil, own, fmt.Errorf("protobuf: nil %T", v)
		}
		rv = rv.Elem()
	} else if rv.IsValid() {
		c := reflect.New(rv.Type()).Elem()
		c.Set(rv)
		rv = c
	}
	if !rv.IsValid() {
		return rv, nil, own, errors.New("protobuf: nil value")
	}
	if own, ok := ownMessageOf(rv.Type()); ok {
		return rv, nil, own, nil
	}
	if rv.Kind() != reflect.Struct {
		return rv, nil, own, fmt.Errorf("protobuf: %s is not a message", rv.Type())
	}
	plan, err := planFor(rv.Type())
	return rv, plan, own, err
}

// typeMetaOf returns the apiVersion and kind that go into the envelope.
func typeMetaOf(obj any) (TypeMeta, error) {
	o, ok := obj.(interface{ GetTypeMeta() *TypeMeta })
	if !ok {
		return TypeMeta{}, fmt.Errorf("protobuf: %T has no TypeMeta for the envelope", obj)
	}
	tm := *o.GetTypeMeta()
	// client-go decodes a watch event's object by the envelope's kind, so
	// an envelope without one would be unreadable.
	if tm.APIVersion == "" || tm.Kind == "" {
		return tm, fmt.Errorf("protobuf: %T has no apiVersion and kind set for the envelope", obj)
	}
	return tm, nil
}

// EncodeProtobuf returns obj as a Kubernetes protobuf body: the prefix, then
// the runtime.Unknown envelope with obj's apiVersion and kind (which must be
// set) and obj's message.
func EncodeProtobuf(obj any) ([]byte, error) {
	b, start, err := appendEnvelope(nil, 0, obj)
	if err != nil {
		return nil, err
	}
	return b[start:], nil
}

// appendEnvelope appends the body of obj to b, leaving room bytes free
// before it for a caller's own header (a watch frame's). The envelope's
// header holds the message's length, so the message is written first into
// room reserved for the longest header, and the header then goes right
// before it; the body is b[start:].
func appendEnvelope(b []byte, room int, obj any) (_ []byte, start int, _ error) {
	tm, err := typeMetaOf(obj)
	if err != nil {
		return b, 0, err
	}
	tmLen := sizeString(tm.APIVersion) + sizeString(tm.Kind)
	header := len(ProtobufPrefix) + 1 + protowire.SizeVarint(uint64(tmLen)) + tmLen + 1 + maxVarintLen
	base := len(b) + room
	b = slices.Grow(b, room+header+512)[:base+header]
	if b, err = AppendProto(b, obj); err != nil {
		return b, 0, err
	}
	rawLen := len(b) - base - header
	b = append(b, 3<<3|2, 0, 4<<3|2, 0) // contentEncoding "", contentType ""

	used := header - maxVarintLen + protowire.SizeVarint(uint64(rawLen))
	start = base + header - used
	h := append(b[start:start], ProtobufPrefix...)
	h = protowire.AppendTag(h, 1, protowire.BytesType)
	h = protowire.AppendVarint(h, uint64(tmLen))
	h = appendStringField(h, 1, tm.APIVersion)
	h = appendStringField(h, 2, tm.Kind)
	h = protowire.AppendTag(h, 2, protowire.BytesType)
	protowire.AppendVarint(h, uint64(rawLen))
	return b, start, nil
}

// maxVarintLen is the longest a varint can be.
const maxVarintLen = 10

// sizeString is the size of a string field with a one-byte key.
func sizeString(s string) int { return 1 + protowire.SizeBytes(len(s)) }

func appendStringField(b []byte, num protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

// DecodeProtobuf reads a Kubernetes protobuf body into into (a pointer to a
// struct with protobuf tags, or nil to read only the envelope) and returns
// the envelope's apiVersion and kind, which it also sets on into when into
// has a TypeMeta: the JSON decoder sets them from the body too, so the rest
// of kubeloop sees the same object whichever format it came in.
func DecodeProtobuf(data []byte, into any) (TypeMeta, error) {
	tm, raw, err := decodeEnvelope(data)
	if err != nil {
		return tm, err
	}
	if into == nil {
		return tm, nil
	}
	if err := UnmarshalProto(raw, into); err != nil {
		return tm, err
	}
	if o, ok := into.(interface{ GetTypeMeta() *TypeMeta }); ok {
		*o.GetTypeMeta() = tm
	}
	return tm, nil
}

// decodeEnvelope checks the prefix and reads the runtime.Unknown around the
// object's message, which it returns without copying.
func decodeEnvelope(data []byte) (tm TypeMeta, raw []byte, err error) {
	switch {
	case len(data) == 0:
		return tm, nil, errors.New("protobuf: empty body")
	case !bytes.HasPrefix(data, []byte(ProtobufPrefix)):
		return tm, nil, fmt.Errorf("protobuf: the body does not start with %q", ProtobufPrefix)
	}
	b := data[len(ProtobufPrefix):]
	if len(b) == 0 {
		return tm, nil, errors.New("protobuf: the body has the prefix and nothing else")
	}
	err = readMessage(b, "runtime.Unknown", func(f wireField) error {
		switch f.num {
		case 1:
			return readMessage(f.bytes, "typeMeta", func(f wireField) error {
				switch f.num {
				case 1:
					tm.APIVersion = string(f.bytes)
				case 2:
					tm.Kind = string(f.bytes)
				default:
					return errUnknownField
				}
				return nil
			})
		case 2:
			raw = f.bytes
		case 3, 4:
			// contentEncoding and contentType: the apiserver writes them
			// empty, and so does every client.
			if len(f.bytes) != 0 {
				return fmt.Errorf("protobuf: content encoding and type %q are not supported", f.bytes)
			}
		default:
			return errUnknownField
		}
		return nil
	})
	if err != nil {
		return tm, nil, fmt.Errorf("protobuf envelope: %w", err)
	}
	return tm, raw, nil
}

// errUnknownField is what a readMessage callback returns for a field number
// it does not know; readMessage names the field.
var errUnknownField = errors.New("unknown field")

// readMessage calls fn for each field of a small fixed message whose fields
// are all length-delimited (the envelope, a watch event).
func readMessage(b []byte, name string, fn func(wireField) error) error {
	for len(b) > 0 {
		f, rest, err := nextField(b)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		b = rest
		if f.typ != protowire.BytesType {
			return fmt.Errorf("%s: field %d has wire type %s, want bytes", name, f.num, wireTypeName(f.typ))
		}
		if err := fn(f); err == errUnknownField {
			return fmt.Errorf("%s: unknown field number %d", name, f.num)
		} else if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}
