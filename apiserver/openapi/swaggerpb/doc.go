// Package swaggerpb writes a Swagger 2.0 (OpenAPI v2) document in the
// protobuf form clients ask /openapi/v2 for: client-go's discovery client
// (OpenAPISchema), and through it kubectl, sends only
// "Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf" and
// decodes the answer as gnostic's openapi_v2.Document. kubectl uses that
// document for `kubectl explain --output plaintext-openapiv2`, for explain
// when /openapi/v3 is missing, and for client-side validation when the
// server's v3 documents do not declare fieldValidation.
//
// Where it sits: off the reading path; apiserver/openapi encodes its v2
// document once, at start-up, with Marshal.
//
// How: the document arrives as JSON and is walked as decoded JSON; a table
// of gnostic's messages (messages.go: for each JSON key the protobuf field
// number and kind, from github.com/google/gnostic-models
// openapiv2/OpenAPIv2.proto) drives one encoder over
// google.golang.org/protobuf/encoding/protowire. A JSON key the table does
// not know is an error, never a silently dropped field.
//
// Kubernetes counterpart: k8s.io/kube-openapi/pkg/handler/handler.go
// (ToProtoBinary: gnostic's ParseDocument from JSON, then proto.Marshal).
// What we simplify: only the parts of Swagger 2.0 that Kubernetes'
// documents use (no security definitions, shared parameters or responses,
// headers, examples or XML); vendor extensions and defaults carry their
// value as JSON text (valid YAML), where gnostic writes YAML.
package swaggerpb
