package serializer

import "kubeloop/api"

// Decoder turns a request body into an object.
type Decoder interface {
	// Decode fills into (an api.Object, or *api.DeleteOptions) from data.
	// With strict it also returns the unknown and duplicate fields it met,
	// worded as Kubernetes words them (`unknown field "spec.foo"`,
	// `duplicate field "metadata.name"`); without, it drops them. A body
	// that cannot be read at all is an error.
	Decode(data []byte, into any, strict bool) (problems []string, err error)
}

// Encoder turns an answer into bytes.
type Encoder interface {
	Encode(v any) ([]byte, error)
}

// StreamSerializer frames the events of a watch stream.
type StreamSerializer interface {
	// MediaType is the Content-Type of the stream.
	MediaType() string
	// AppendEvent appends one event to buf. object is the event's object,
	// already encoded by the same SerializerInfo's Encoder, so that one
	// encoding can be shared by many watchers.
	AppendEvent(buf []byte, eventType api.EventType, object []byte) []byte
}

// SerializerInfo is one media type the server speaks, and in which
// directions. Kubernetes: runtime.SerializerInfo
// (staging/src/k8s.io/apimachinery/pkg/runtime/interfaces.go).
type SerializerInfo struct {
	// MediaType is the Content-Type it reads and writes.
	MediaType string
	// EncodesAsText: answers end with a newline, as Kubernetes' JSON does.
	// A binary answer must not, or the client reads one byte too many.
	EncodesAsText bool
	// Decoder reads request bodies; nil if the server does not accept this
	// media type as a body.
	Decoder Decoder
	// Encoder writes answers; nil if the server does not answer in it
	// (negotiation then falls back to JSON).
	Encoder Encoder
	// StreamSerializer frames watch events; nil if watches are not offered
	// in this media type.
	StreamSerializer StreamSerializer
}

// The media types.
const (
	ContentTypeJSON     = "application/json"
	ContentTypeYAML     = "application/yaml"
	ContentTypeProtobuf = "application/vnd.kubernetes.protobuf"
)

// SupportedMediaTypes is every serializer the server offers, JSON first
// (the default for an empty Content-Type and for an Accept header that
// names nothing we speak). Adding a media type is one more entry here.
// Kubernetes: CodecFactory.SupportedMediaTypes
// (staging/src/k8s.io/apimachinery/pkg/runtime/serializer/codec_factory.go).
func SupportedMediaTypes() []SerializerInfo {
	return []SerializerInfo{
		{MediaType: ContentTypeJSON, EncodesAsText: true, Decoder: jsonDecoder{}, Encoder: jsonEncoder{}, StreamSerializer: jsonStream{}},
		{MediaType: ContentTypeYAML, EncodesAsText: true, Decoder: yamlDecoder{}},
		{MediaType: ContentTypeProtobuf, Decoder: protobufSerializer{}, Encoder: protobufSerializer{}, StreamSerializer: protobufSerializer{}},
	}
}
