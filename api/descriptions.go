package api

import "sync"

// typeDoc is the documentation of one Go type of this package, as
// cmd/openapi-gen extracted it from the doc comments into
// zz_generated.descriptions.go.
type typeDoc struct {
	doc    string
	fields map[string]string // by Go field name; an embedded field by its type's name
}

// typeDocTable is the generated table, built once.
var typeDocTable = sync.OnceValue(typeDocs)

// Description returns the description of the exported type typeName of this
// package when field is "", or of its field with that Go name (an embedded
// field is named after its type: "ObjectMeta"); "" when there is none. It is
// the doc comment in the form OpenAPI carries it (marker lines dropped,
// lines joined), and the apiserver's OpenAPI schemas take every
// description from here (apiserver/openapi/spec), so `kubectl explain`
// prints the comments of these types. After editing a comment, run
// `go generate ./api`; TestDescriptionsAreCurrent fails until then.
func Description(typeName, field string) string {
	d := typeDocTable()[typeName]
	if field == "" {
		return d.doc
	}
	return d.fields[field]
}
