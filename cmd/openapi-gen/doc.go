// Command openapi-gen extracts the doc comments of package api into a Go
// table, api/zz_generated.descriptions.go, from which the apiserver's
// OpenAPI schemas take their descriptions (api.Description). The comments
// are the one source of every description kubectl explain prints: edit the
// comment, run `go generate ./api`, and the schema follows; a test in
// package api fails while the table is stale.
//
// What it reads: every non-test .go file of one package directory (go/parser,
// no type checking). What it records: the doc comment of every exported type
// (struct, named scalar, alias such as PodList) and of every exported field of
// an exported struct, keyed by Go type name and Go field name; an embedded
// field is keyed by the name of its type (ObjectMeta), as reflect names it.
//
// How a comment becomes a description (description.go): marker lines
// ("+optional", "+listType=map") and one-line TODOs are dropped, everything
// from a "---" line on is dropped, the lines of a paragraph are joined with
// spaces, paragraphs stay separated by a blank line, and an indented line
// (an example) keeps a line of its own.
//
// Kubernetes counterpart (kube-openapi, pinned with kubernetes v1.37.2):
// k8s.io/kube-openapi/pkg/generators/openapi.go, openAPITypeWriter
// (generateDescription for the text rules; the same generator writes the
// whole schema as Go code, zz_generated.openapi.go). What we simplify: we
// generate only the descriptions, and build the schemas from the Go types
// by reflection at run time (apiserver/openapi/spec); we read no markers
// (+optional, +enum, +listType), so "required" comes from the json tags plus
// a short table of Kubernetes' exceptions (apiserver/openapi/spec).
//
// Usage (from api/doc.go's go:generate line):
//
//	go run ../cmd/openapi-gen [-dir .] [-out zz_generated.descriptions.go]
package main
