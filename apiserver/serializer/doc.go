// Package serializer holds the codecs of the HTTP API: how a request body in
// each media type becomes an object, how an answer becomes bytes, and how a
// watch stream is framed. SupportedMediaTypes is the one table of them:
// JSON and Kubernetes' protobuf in both directions and for watches; YAML
// request bodies.
//
// Where it sits on the spine: the endpoint handlers ask package negotiation
// which SerializerInfo a request's Content-Type (or Accept header) names,
// then call its Decoder, Encoder or StreamSerializer; nothing else in the
// server encodes or decodes the wire format. Below it is only package api,
// whose JSON codec knows the wire names of every kind.
//
// Kubernetes counterparts (v1.37.2):
//   - staging/src/k8s.io/apimachinery/pkg/runtime/serializer/codec_factory.go
//     (CodecFactory.SupportedMediaTypes) — SupportedMediaTypes
//   - staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go
//     (Serializer.Decode, unmarshal; the YAML serializer is the same type
//     with options.Yaml) — json.go, yaml.go
//   - staging/src/k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go
//     (Serializer.Decode, Serializer.Encode) and pkg/util/framer/framer.go
//     (the length-delimited watch frames) — protobuf.go; the codec itself is
//     package api's (api/protobuf.go)
//
// What we simplify: there is no scheme and no conversion between versions:
// a body decodes straight into the Go type of the URL's kind. An Accept
// header asking for YAML gets JSON. A protobuf field number our types lack
// is a 400, where Kubernetes' generated code would skip it: kubeloop's
// types declare every field of k8s.io/api v0.37.2, so such a field is from
// a newer client, and dropping it silently would lose data.
package serializer
