package serializer

import (
	"encoding/binary"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	"kubeloop/api"
)

// protobufSerializer reads and writes Kubernetes' protobuf: the "k8s\x00"
// prefix, a runtime.Unknown envelope naming apiVersion and kind, and the
// object's own message with k8s.io/api's field numbers. The codec itself is
// package api's (api/protobuf.go): one codec driven by each type's
// protobuf struct tags. This file only plugs it into the server.
//
// Kubernetes: staging/src/k8s.io/apimachinery/pkg/runtime/serializer/
// protobuf/protobuf.go (Serializer.Decode, Serializer.Encode) v1.37.2.
type protobufSerializer struct{}

// Decode reads a body into into. The protobuf codec has no "unknown field"
// warnings to give: a field number our type lacks is an error, never a
// silent drop, so strict changes nothing here. A kind in the envelope that
// is not the endpoint's is caught by the handler, as for JSON, because
// DecodeProtobuf sets into's TypeMeta from the envelope.
func (protobufSerializer) Decode(data []byte, into any, strict bool) ([]string, error) {
	if len(data) == 0 {
		return nil, errEmptyBody
	}
	if _, err := api.DecodeProtobuf(data, into); err != nil {
		return nil, api.NewBadRequest(fmt.Sprintf("the body of the request could not be decoded as protobuf: %v", err))
	}
	return nil, nil
}

// Encode writes v's envelope and message; v's apiVersion and kind must be
// set (the handlers set them on every answer, as they do for JSON).
func (protobufSerializer) Encode(v any) ([]byte, error) { return api.EncodeProtobuf(v) }

// MediaType of a protobuf watch stream: the parameter tells a client that
// the body is a sequence of frames rather than one object.
func (protobufSerializer) MediaType() string { return ContentTypeProtobuf + ";stream=watch" }

// AppendEvent frames one watch event: a 4-byte big-endian length, then a
// metav1.WatchEvent {1 type, 2 object: RawExtension {1 raw}} written by the
// raw serializer — no prefix or envelope around the event itself — whose
// raw bytes are the object's whole protobuf body (prefix and envelope
// included), as Encode made it. Kubernetes: the length-delimited framer
// (staging/src/k8s.io/apimachinery/pkg/util/framer/framer.go) and
// endpoints/handlers/watch.go (serveWatch's embedded encoder).
func (protobufSerializer) AppendEvent(buf []byte, eventType api.EventType, object []byte) []byte {
	rawExt := 1 + protowire.SizeBytes(len(object))
	size := 1 + protowire.SizeBytes(len(eventType)) + 1 + protowire.SizeBytes(rawExt)
	buf = binary.BigEndian.AppendUint32(buf, uint32(size))
	buf = protowire.AppendTag(buf, 1, protowire.BytesType)
	buf = protowire.AppendString(buf, string(eventType))
	buf = protowire.AppendTag(buf, 2, protowire.BytesType)
	buf = protowire.AppendVarint(buf, uint64(rawExt))
	buf = protowire.AppendTag(buf, 1, protowire.BytesType)
	return protowire.AppendBytes(buf, object)
}
