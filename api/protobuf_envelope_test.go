package api

import (
	"bytes"
	"encoding/hex"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type pbObject struct {
	TypeMeta `json:",inline"`
	Meta     pbSub `protobuf:"bytes,1,opt,name=metadata"`
}

func (o *pbObject) GetTypeMeta() *TypeMeta { return &o.TypeMeta }

// The body of a pod named p, as kube-apiserver writes it.
const pbPodBody = "6b387300" + // "k8s\x00"
	"0a09 0a027631 1203506f64" + // 1 typeMeta {apiVersion "v1", kind "Pod"}
	"1205 0a03 0a0170" + // 2 raw: the object's message
	"1a00 2200" // 3 contentEncoding, 4 contentType: empty, written anyway

func TestEncodeProtobufWritesPrefixAndEnvelope(t *testing.T) {
	b, err := EncodeProtobuf(&pbObject{TypeMeta: TypeMeta{APIVersion: "v1", Kind: "Pod"}, Meta: pbSub{Name: "p"}})
	require.NoError(t, err)
	assert.Equal(t, hex.EncodeToString(unhex(t, pbPodBody)), hex.EncodeToString(b))
}

func TestEncodeProtobufNeedsTheTypeMeta(t *testing.T) {
	_, err := EncodeProtobuf(&pbObject{Meta: pbSub{Name: "p"}})
	assert.ErrorContains(t, err, "no apiVersion and kind")
	_, err = EncodeProtobuf(&pbSub{})
	assert.ErrorContains(t, err, "has no TypeMeta")
}

func TestEncodeProtobufOfALargeObjectHasALongLength(t *testing.T) {
	in := &pbObject{TypeMeta: TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}, Meta: pbSub{Name: string(bytes.Repeat([]byte("n"), 70000))}}
	b, err := EncodeProtobuf(in)
	require.NoError(t, err)
	var out pbObject
	tm, err := DecodeProtobuf(b, &out)
	require.NoError(t, err)
	assert.Equal(t, in.TypeMeta, tm)
	assert.Equal(t, *in, out, "the envelope's apiVersion and kind are set on the object")
}

func TestDecodeProtobufWithoutATargetReadsTheEnvelope(t *testing.T) {
	tm, err := DecodeProtobuf(unhex(t, pbPodBody), nil)
	require.NoError(t, err)
	assert.Equal(t, TypeMeta{APIVersion: "v1", Kind: "Pod"}, tm)
}

func TestDecodeProtobufRejectsBadBodies(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"empty", "", "empty body"},
		{"json", hex.EncodeToString([]byte(`{"kind":"Pod"}`)), `does not start with "k8s\x00"`},
		{"prefix only", "6b387300", "the prefix and nothing else"},
		{"unknown envelope field", "6b387300 2a00", "runtime.Unknown: unknown field number 5"},
		{"unknown typeMeta field", "6b387300 0a02 1a00", "typeMeta: unknown field number 3"},
		{"varint in envelope", "6b387300 1000", "runtime.Unknown: field 2 has wire type varint, want bytes"},
		{"content type", "6b387300 2204 6a736f6e", `content encoding and type "json" are not supported`},
		{"truncated", "6b387300 0a09 0a02", "unexpected EOF"},
		{"bad object", "6b387300 1202 1800", "decoding protobuf api.pbObject: unknown field number 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out pbObject
			_, err := DecodeProtobuf(unhex(t, tc.body), &out)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// The frame of an ADDED event for that pod: a 4-byte length, then a
// WatchEvent {1 type, 2 object RawExtension {1 raw: the whole body}}.
const pbAddedFrame = "00000025" +
	"0a05 4144444544" + // 1 type "ADDED"
	"121c 0a1a" + pbPodBody // 2 object {1 raw}

func TestProtobufWatchFrame(t *testing.T) {
	pod := &pbObject{TypeMeta: TypeMeta{APIVersion: "v1", Kind: "Pod"}, Meta: pbSub{Name: "p"}}
	b, err := AppendProtobufWatchFrame([]byte("before"), Added, pod)
	require.NoError(t, err)
	assert.Equal(t, "before"+string(unhex(t, pbAddedFrame)), string(b))

	_, err = AppendProtobufWatchFrame(nil, Added, &pbObject{})
	assert.ErrorContains(t, err, "no apiVersion and kind")
}

func TestProtobufWatchStreamRoundTrips(t *testing.T) {
	var stream bytes.Buffer
	enc := NewProtobufWatchEncoder(&stream)
	big := string(bytes.Repeat([]byte("b"), 100000))
	events := []struct {
		typ  EventType
		name string
	}{{Added, "a"}, {Modified, big}, {Deleted, ""}, {Bookmark, "d"}}
	for _, e := range events {
		require.NoError(t, enc.Encode(e.typ, &pbObject{TypeMeta: TypeMeta{APIVersion: "v1", Kind: "Pod"}, Meta: pbSub{Name: e.name}}))
	}
	dec := NewProtobufWatchDecoder(&stream)
	for _, e := range events {
		typ, body, err := dec.Next()
		require.NoError(t, err)
		assert.Equal(t, e.typ, typ)
		var out pbObject
		tm, err := DecodeProtobuf(body, &out)
		require.NoError(t, err)
		assert.Equal(t, "Pod", tm.Kind)
		assert.Equal(t, e.name, out.Meta.Name)
	}
	_, _, err := dec.Next()
	assert.Equal(t, io.EOF, err, "the stream ends cleanly between frames")
}

func TestProtobufWatchDecoderRejectsBrokenFrames(t *testing.T) {
	frame := unhex(t, pbAddedFrame)
	for _, tc := range []struct {
		name   string
		stream []byte
		want   string
	}{
		{"cut in the header", frame[:2], "unexpected EOF"},
		{"cut in the event", frame[:20], "unexpected EOF"},
		{"a length far beyond the data", append(unhex(t, "fffffff0"), frame[4:]...), "unexpected EOF"},
		{"no type", unhex(t, "00000004 1202 0a00"), "watch event: no type"},
		{"no object", unhex(t, "00000007 0a05 4144444544"), "watch event ADDED: no object"},
		{"unknown event field", unhex(t, "00000002 1a00"), "watch event: unknown field number 3"},
		{"unknown object field", unhex(t, "00000004 1202 1200"), "object: unknown field number 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := NewProtobufWatchDecoder(bytes.NewReader(tc.stream)).Next()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
