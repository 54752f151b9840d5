package api

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
)

// A protobuf watch stream (Accept: application/vnd.kubernetes.protobuf;
// stream=watch) is a sequence of frames, each a 4-byte big-endian length and
// then a metav1.WatchEvent message
//
//	1 type   "ADDED", "MODIFIED", "DELETED", "BOOKMARK" or "ERROR"
//	2 object a RawExtension {1 raw}, raw being the object's whole protobuf
//	         body: prefix, envelope and message
//
// The event itself has neither prefix nor envelope: the apiserver writes it
// with the raw protobuf serializer and frames it with the length-delimited
// framer, and embeds the object encoded by the ordinary one.
//
// Kubernetes: staging/src/k8s.io/apimachinery/pkg/util/framer/framer.go
// (NewLengthDelimitedFrameWriter, NewLengthDelimitedFrameReader),
// pkg/runtime/serializer/codec_factory.go (the raw serializer paired with
// the framer), apiserver/pkg/endpoints/handlers/watch.go (the embedded
// object), v1.37.2.

// AppendProtobufWatchFrame appends one frame of a protobuf watch stream:
// an event of type eventType carrying obj, whose apiVersion and kind must be
// set.
func AppendProtobufWatchFrame(b []byte, eventType EventType, obj any) ([]byte, error) {
	base := len(b)
	b, start, err := appendWatchFrame(b, eventType, obj)
	if err != nil {
		return b[:base], err
	}
	// Close the gap the unused headroom left between b[:base] and the frame.
	n := copy(b[base:], b[start:])
	return b[:base+n], nil
}

// appendWatchFrame appends a frame to b after some unused headroom; the
// frame is b[start:]. The frame's headers hold the lengths of what follows,
// so the object's body is written first, after room for the longest
// headers, and the headers are then written right before it.
func appendWatchFrame(b []byte, eventType EventType, obj any) (_ []byte, start int, _ error) {
	room := 4 + 1 + maxVarintLen + len(eventType) + 1 + maxVarintLen + 1 + maxVarintLen
	b, body, err := appendEnvelope(b, room, obj)
	if err != nil {
		return b, 0, err
	}
	bodyLen := len(b) - body
	rawExtLen := 1 + protowire.SizeBytes(bodyLen)
	eventLen := sizeString(string(eventType)) + 1 + protowire.SizeBytes(rawExtLen)
	start = body - (4 + eventLen - rawExtLen + 1 + protowire.SizeVarint(uint64(bodyLen)))
	h := binary.BigEndian.AppendUint32(b[start:start], uint32(eventLen))
	h = appendStringField(h, 1, string(eventType))
	h = protowire.AppendTag(h, 2, protowire.BytesType)
	h = protowire.AppendVarint(h, uint64(rawExtLen))
	h = protowire.AppendTag(h, 1, protowire.BytesType)
	protowire.AppendVarint(h, uint64(bodyLen))
	return b, start, nil
}

// ProtobufWatchEncoder writes the frames of a protobuf watch stream to w.
//
// +kubeloop:deepcopy=false
type ProtobufWatchEncoder struct {
	w   io.Writer
	buf []byte // reused for every frame
}

// NewProtobufWatchEncoder returns an encoder that writes to w.
func NewProtobufWatchEncoder(w io.Writer) *ProtobufWatchEncoder {
	return &ProtobufWatchEncoder{w: w}
}

// Encode writes one event as one frame, with a single Write.
func (e *ProtobufWatchEncoder) Encode(eventType EventType, obj any) error {
	b, start, err := appendWatchFrame(e.buf[:0], eventType, obj)
	e.buf = b
	if err != nil {
		return err
	}
	_, err = e.w.Write(b[start:])
	return err
}

// ProtobufWatchDecoder reads the frames of a protobuf watch stream.
//
// +kubeloop:deepcopy=false
type ProtobufWatchDecoder struct {
	r   io.Reader
	buf bytes.Buffer // the current frame
}

// NewProtobufWatchDecoder returns a decoder that reads from r.
func NewProtobufWatchDecoder(r io.Reader) *ProtobufWatchDecoder {
	return &ProtobufWatchDecoder{r: r}
}

// Next reads one frame and returns its event type and the object's body,
// for DecodeProtobuf. The body is valid until the next call. At the end of
// the stream between frames it returns io.EOF; a stream that ends inside a
// frame is io.ErrUnexpectedEOF.
func (d *ProtobufWatchDecoder) Next() (EventType, []byte, error) {
	var header [4]byte
	if _, err := io.ReadFull(d.r, header[:]); err != nil {
		return "", nil, err
	}
	n := int64(binary.BigEndian.Uint32(header[:]))
	// The buffer grows with what actually arrives, not with what the
	// header claims, so a lying length cannot make it allocate.
	d.buf.Reset()
	if got, err := d.buf.ReadFrom(io.LimitReader(d.r, n)); err != nil {
		return "", nil, err
	} else if got < n {
		return "", nil, io.ErrUnexpectedEOF
	}
	return DecodeProtobufWatchEvent(d.buf.Bytes())
}

// DecodeProtobufWatchEvent reads one WatchEvent message (a frame without its
// length) and returns its type and the object's body, which aliases frame.
func DecodeProtobufWatchEvent(frame []byte) (EventType, []byte, error) {
	var eventType EventType
	var body []byte
	var sawObject bool
	err := readMessage(frame, "watch event", func(f wireField) error {
		switch f.num {
		case 1:
			eventType = EventType(f.bytes)
		case 2:
			sawObject = true
			return readMessage(f.bytes, "object", func(f wireField) error {
				if f.num != 1 {
					return errUnknownField
				}
				body = f.bytes
				return nil
			})
		default:
			return errUnknownField
		}
		return nil
	})
	switch {
	case err != nil:
		return "", nil, err
	case eventType == "":
		return "", nil, errors.New("watch event: no type")
	case !sawObject || body == nil:
		return "", nil, fmt.Errorf("watch event %s: no object", eventType)
	}
	return eventType, body, nil
}
