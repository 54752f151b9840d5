package api

import (
	"bytes"
	"fmt"
	"reflect"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// The types whose protobuf message is not their Go layout. Each has the
// two methods of protoMarshaler, and the plan (protobuf_plan.go) hands
// their values to these methods instead of walking their fields.

// protoMarshaler is what such a type implements on its pointer:
// appendProto appends the message's fields (without a tag or length),
// unmarshalProto reads them back.
type protoMarshaler interface {
	appendProto(b []byte) []byte
	unmarshalProto(b []byte) error
}

// protoOwnMessage is a type's protoMarshaler methods bound to its concrete
// type, so calling them costs no conversion to an interface.
type protoOwnMessage struct {
	append    func(b []byte, v reflect.Value) []byte
	unmarshal func(b []byte, v reflect.Value) error
}

// ownMessageOf returns t's methods if t writes its own message.
func ownMessageOf(t reflect.Type) (protoOwnMessage, bool) {
	switch t {
	case reflect.TypeFor[Time]():
		return ownMessage[Time](), true
	case reflect.TypeFor[MicroTime]():
		return ownMessage[MicroTime](), true
	case reflect.TypeFor[Quantity]():
		return ownMessage[Quantity](), true
	case reflect.TypeFor[FieldsV1]():
		return ownMessage[FieldsV1](), true
	}
	return protoOwnMessage{}, false
}

// ownMessage binds PT's methods. v must be addressable: they are on the
// pointer.
func ownMessage[T any, PT interface {
	*T
	protoMarshaler
}]() protoOwnMessage {
	return protoOwnMessage{
		append:    func(b []byte, v reflect.Value) []byte { return v.Addr().Interface().(PT).appendProto(b) },
		unmarshal: func(b []byte, v reflect.Value) error { return v.Addr().Interface().(PT).unmarshalProto(b) },
	}
}

// Time's protobuf form is a Timestamp message {1 seconds, 2 nanos}, and
// nothing at all for the zero time (an empty message). Like the JSON form
// it keeps whole seconds: nanos is written as 0 and ignored when read.
// Kubernetes: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/
// time_proto.go (ProtoTime, Marshal, Unmarshal).

func (t *Time) appendProto(b []byte) []byte {
	if t.IsZero() {
		return b
	}
	return appendTimestamp(b, t.Unix(), 0)
}

func (t *Time) unmarshalProto(b []byte) error {
	sec, _, err := decodeTimestamp(b)
	if err != nil || len(b) == 0 {
		*t = Time{}
		return err
	}
	*t = Time{time.Unix(sec, 0).UTC()}
	return nil
}

// MicroTime's protobuf form is a Timestamp too, with nanos truncated to
// microseconds both ways, and an empty message for the zero time.
// Kubernetes: apimachinery/pkg/apis/meta/v1/micro_time_proto.go
// (ProtoMicroTime, Unmarshal).

func (t *MicroTime) appendProto(b []byte) []byte {
	if t.IsZero() {
		return b
	}
	micros := time.Duration(t.Nanosecond()).Truncate(time.Microsecond)
	return appendTimestamp(b, t.Unix(), int32(micros))
}

func (t *MicroTime) unmarshalProto(b []byte) error {
	sec, nanos, err := decodeTimestamp(b)
	if err != nil || len(b) == 0 {
		*t = MicroTime{}
		return err
	}
	micros := time.Duration(nanos).Truncate(time.Microsecond)
	*t = MicroTime{time.Unix(sec, int64(micros)).UTC()}
	return nil
}

// appendTimestamp appends a Timestamp's two fields; gogo writes both even
// when zero.
func appendTimestamp(b []byte, seconds int64, nanos int32) []byte {
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(seconds))
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(int64(nanos)))
}

// decodeTimestamp reads a Timestamp message.
func decodeTimestamp(b []byte) (seconds int64, nanos int32, err error) {
	for len(b) > 0 {
		f, rest, err := nextField(b)
		if err != nil {
			return 0, 0, err
		}
		b = rest
		switch {
		case f.num == 1 && f.typ == protowire.VarintType:
			seconds = int64(f.varint)
		case f.num == 2 && f.typ == protowire.VarintType:
			nanos = int32(f.varint)
		default:
			return 0, 0, fmt.Errorf("timestamp: unexpected field %d of wire type %s", f.num, wireTypeName(f.typ))
		}
	}
	return seconds, nanos, nil
}

// A Quantity's protobuf form is a message {1 string} holding its text. For
// a quantity that is not empty, that is the text as the client sent it, as
// in our JSON; Kubernetes writes its canonical form (resource.Quantity's
// String, so "1000m" goes out as "1"), which is the same text for every
// quantity that came from Kubernetes. The empty quantity goes out as "0",
// which is what Kubernetes' zero Quantity prints. Kubernetes:
// staging/src/k8s.io/apimachinery/pkg/api/resource/quantity_proto.go.

func (q *Quantity) appendProto(b []byte) []byte {
	s := string(*q)
	if s == "" {
		s = "0"
	}
	return appendStringField(b, 1, s)
}

// unmarshalProto reads the text and, like Kubernetes, rejects one that is
// not a quantity.
func (q *Quantity) unmarshalProto(b []byte) error {
	*q = ""
	for len(b) > 0 {
		f, rest, err := nextField(b)
		if err != nil {
			return err
		}
		b = rest
		if f.num != 1 || f.typ != protowire.BytesType {
			return fmt.Errorf("quantity: unexpected field %d of wire type %s", f.num, wireTypeName(f.typ))
		}
		if *q, err = ParseQuantity(string(f.bytes)); err != nil {
			return err
		}
	}
	return nil
}

// FieldsV1's protobuf form is {1 raw}, written only when the raw set is not
// empty: Kubernetes' hand-written FieldsV1.MarshalToSizedBuffer
// (apimachinery/pkg/apis/meta/v1/fieldsv1.go) tests len(raw) > 0, where
// gogo's generated code for other bytes fields tests raw != nil.

func (f *FieldsV1) appendProto(b []byte) []byte {
	if len(f.Raw) == 0 {
		return b
	}
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	return protowire.AppendBytes(b, f.Raw)
}

func (f *FieldsV1) unmarshalProto(b []byte) error {
	f.Raw = nil
	for len(b) > 0 {
		wf, rest, err := nextField(b)
		if err != nil {
			return err
		}
		b = rest
		if wf.num != 1 || wf.typ != protowire.BytesType {
			return fmt.Errorf("fieldsV1: unexpected field %d of wire type %s", wf.num, wireTypeName(wf.typ))
		}
		f.Raw = bytes.Clone(wf.bytes)
	}
	return nil
}
