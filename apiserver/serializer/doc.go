// Package serializer holds the codecs of the HTTP API: how a request body in
// each media type becomes an object, how an answer becomes bytes, and how a
// watch stream is framed. SupportedMediaTypes is the one table of them:
// JSON in both directions and for watches; YAML request bodies; protobuf
// request bodies of ConfigMap and Namespace.
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
//     (Serializer.Decode) — protobuf.go
//
// What we simplify: there is no scheme and no conversion between versions:
// a body decodes straight into the Go type of the URL's kind. Answers are
// JSON only (an Accept header asking for YAML or protobuf gets JSON, which
// every client accepts); protobuf request bodies are read for ConfigMap and
// Namespace only, other kinds are 415. Watch streams are newline-delimited
// JSON.
package serializer
