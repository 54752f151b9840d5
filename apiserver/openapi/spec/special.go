package spec

import (
	"reflect"

	"kubeloop/api"
)

// specialSchema is the definition of a type that encodes itself as a JSON
// scalar (or as free-form JSON) instead of as an object of its fields.
// Kubernetes declares these by hand (OpenAPISchemaType, OpenAPISchemaFormat
// and OpenAPIV3OneOfTypes on the Go types in apimachinery: time.go,
// micro_time.go, quantity.go, intstr.go); so do we.
func specialSchema(t reflect.Type) (*Schema, bool) {
	var s Schema
	switch t {
	case reflect.TypeFor[api.Time](), reflect.TypeFor[api.MicroTime]():
		s = Schema{Type: "string", Format: "date-time"}
	case reflect.TypeFor[api.Quantity]():
		// A quantity is written as a string ("100m"); clients may send a
		// bare number, which v3 can say.
		s = Schema{Type: "string", OneOfTypes: []string{"string", "number"}}
	case reflect.TypeFor[api.IntOrString]():
		// Kubernetes keeps "type: string" in v2 and says the truth only in
		// v3 and the format; kubectl's v2 validation knows the format.
		s = Schema{Type: "string", Format: "int-or-string", OneOfTypes: []string{"integer", "string"}}
	case reflect.TypeFor[api.FieldsV1]():
		s = Schema{Type: "object"}
	case reflect.TypeFor[api.JSON](), reflect.TypeFor[api.JSONSchemaPropsOrArray](),
		reflect.TypeFor[api.JSONSchemaPropsOrBool](), reflect.TypeFor[api.JSONSchemaPropsOrStringArray]():
		// Any JSON, or a schema or a bool or a list: Kubernetes gives
		// these no type (apiextensions/v1's OpenAPISchemaType is empty).
		s = Schema{}
	default:
		return nil, false
	}
	s.Description = api.Description(t.Name(), "")
	return &s, true
}
