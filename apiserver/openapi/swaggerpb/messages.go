package swaggerpb

import "google.golang.org/protobuf/encoding/protowire"

// kind is how one JSON value becomes one protobuf field.
type kind int

const (
	kString   kind = iota // a string
	kBool                 // a bool (varint)
	kStrings              // a list of strings: a repeated string field
	kMessage              // an object (or, with oneof, any value): an embedded message
	kMessages             // a list: a repeated embedded message
	kAny                  // any value: an Any message holding its JSON text
	kAnys                 // a list of values: a repeated Any
	kDouble               // a number: a double (fixed64)
	kInt64                // an integer: an int64 (varint)
)

type field struct {
	num  protowire.Number
	kind kind
	msg  *message // for kMessage and kMessages
}

// message describes one gnostic message in terms of its JSON form.
type message struct {
	name   string // for error messages
	fields map[string]field
	// entries is for messages that stand for a JSON object with arbitrary
	// keys (definitions, properties, paths, responses): each key becomes a
	// Named message {1 name, 2 value} in this repeated field, its value
	// encoded as entryValue.
	entries    protowire.Number
	entryValue *message
	// extensions is the field of "repeated NamedAny vendor_extension", where
	// the "x-" keys go; 0 if the message has none.
	extensions protowire.Number
	// oneof is for wrapper messages (gnostic's "oneof oneof"): which
	// alternative a JSON value is, as the field it goes in.
	oneof func(v any) field
	// list is for wrapper messages holding a "repeated" of a value that JSON
	// may write as one value or as a list (TypeItem, ItemsItem).
	list *field
}

// swaggerMessages returns the Document message, from which every other is
// reachable. Field numbers are gnostic's OpenAPIv2.proto (gnostic-models
// v0.7.0, the version client-go v0.37.2 decodes with).
func swaggerMessages() *message {
	schema := &message{name: "Schema", extensions: 31}
	jsonReference := &message{name: "JsonReference", fields: map[string]field{
		"$ref": {num: 1}, "description": {num: 2},
	}}
	typeItem := &message{name: "TypeItem", list: &field{num: 1, kind: kString}}
	itemsItem := &message{name: "ItemsItem", list: &field{num: 1, kind: kMessage, msg: schema}}
	additionalProperties := &message{name: "AdditionalPropertiesItem", oneof: func(v any) field {
		if _, isBool := v.(bool); isBool {
			return field{num: 2, kind: kBool}
		}
		return field{num: 1, kind: kMessage, msg: schema}
	}}
	properties := &message{name: "Properties", entries: 1, entryValue: schema}
	schema.fields = map[string]field{
		"$ref": {num: 1}, "format": {num: 2}, "title": {num: 3}, "description": {num: 4},
		"default": {num: 5, kind: kAny}, "pattern": {num: 13}, "uniqueItems": {num: 16, kind: kBool},
		"required": {num: 19, kind: kStrings}, "enum": {num: 20, kind: kAnys},
		"additionalProperties": {num: 21, kind: kMessage, msg: additionalProperties},
		"type":                 {num: 22, kind: kMessage, msg: typeItem},
		"items":                {num: 23, kind: kMessage, msg: itemsItem},
		"allOf":                {num: 24, kind: kMessages, msg: schema},
		"properties":           {num: 25, kind: kMessage, msg: properties},
		"discriminator":        {num: 26}, "readOnly": {num: 27, kind: kBool}, "example": {num: 30, kind: kAny},
		// The value validations, which only custom resources' schemas use.
		"multipleOf": {num: 6, kind: kDouble}, "maximum": {num: 7, kind: kDouble}, "exclusiveMaximum": {num: 8, kind: kBool},
		"minimum": {num: 9, kind: kDouble}, "exclusiveMinimum": {num: 10, kind: kBool},
		"maxLength": {num: 11, kind: kInt64}, "minLength": {num: 12, kind: kInt64},
		"maxItems": {num: 14, kind: kInt64}, "minItems": {num: 15, kind: kInt64},
		"maxProperties": {num: 17, kind: kInt64}, "minProperties": {num: 18, kind: kInt64},
	}

	// The parameter kinds share their first fields; each has its own
	// numbers after that, and its own vendor_extension field.
	nonBodyParameter := func(name string, typeNum, formatNum, uniqueNum, defaultNum, enumNum, ext protowire.Number) *message {
		return &message{name: name, extensions: ext, fields: map[string]field{
			"required": {num: 1, kind: kBool}, "in": {num: 2}, "description": {num: 3}, "name": {num: 4},
			"type": {num: typeNum}, "format": {num: formatNum}, "uniqueItems": {num: uniqueNum, kind: kBool},
			"default": {num: defaultNum, kind: kAny}, "enum": {num: enumNum, kind: kAnys},
		}}
	}
	header := nonBodyParameter("HeaderParameterSubSchema", 5, 6, 19, 9, 20, 22)
	query := nonBodyParameter("QueryParameterSubSchema", 6, 7, 20, 10, 21, 23)
	query.fields["allowEmptyValue"] = field{num: 5, kind: kBool}
	path := nonBodyParameter("PathParameterSubSchema", 5, 6, 19, 9, 20, 22)
	nonBody := &message{name: "NonBodyParameter", oneof: func(v any) field {
		switch member(v, "in") {
		case "header":
			return field{num: 1, kind: kMessage, msg: header}
		case "path":
			return field{num: 4, kind: kMessage, msg: path}
		}
		return field{num: 3, kind: kMessage, msg: query}
	}}
	body := &message{name: "BodyParameter", extensions: 6, fields: map[string]field{
		"description": {num: 1}, "name": {num: 2}, "in": {num: 3}, "required": {num: 4, kind: kBool},
		"schema": {num: 5, kind: kMessage, msg: schema},
	}}
	parameter := &message{name: "Parameter", oneof: func(v any) field {
		if member(v, "in") == "body" {
			return field{num: 1, kind: kMessage, msg: body}
		}
		return field{num: 2, kind: kMessage, msg: nonBody}
	}}
	parametersItem := &message{name: "ParametersItem", oneof: func(v any) field {
		if member(v, "$ref") != nil {
			return field{num: 2, kind: kMessage, msg: jsonReference}
		}
		return field{num: 1, kind: kMessage, msg: parameter}
	}}

	schemaItem := &message{name: "SchemaItem", oneof: func(any) field {
		return field{num: 1, kind: kMessage, msg: schema}
	}}
	response := &message{name: "Response", extensions: 5, fields: map[string]field{
		"description": {num: 1}, "schema": {num: 2, kind: kMessage, msg: schemaItem},
	}}
	responseValue := &message{name: "ResponseValue", oneof: func(v any) field {
		if member(v, "$ref") != nil {
			return field{num: 2, kind: kMessage, msg: jsonReference}
		}
		return field{num: 1, kind: kMessage, msg: response}
	}}
	responses := &message{name: "Responses", entries: 1, entryValue: responseValue, extensions: 2}

	operation := &message{name: "Operation", extensions: 13, fields: map[string]field{
		"tags": {num: 1, kind: kStrings}, "summary": {num: 2}, "description": {num: 3},
		"operationId": {num: 5}, "produces": {num: 6, kind: kStrings}, "consumes": {num: 7, kind: kStrings},
		"parameters": {num: 8, kind: kMessages, msg: parametersItem},
		"responses":  {num: 9, kind: kMessage, msg: responses},
		"schemes":    {num: 10, kind: kStrings}, "deprecated": {num: 11, kind: kBool},
	}}
	op := field{kind: kMessage, msg: operation}
	at := func(f field, n protowire.Number) field { f.num = n; return f }
	pathItem := &message{name: "PathItem", extensions: 10, fields: map[string]field{
		"$ref": {num: 1}, "get": at(op, 2), "put": at(op, 3), "post": at(op, 4), "delete": at(op, 5),
		"options": at(op, 6), "head": at(op, 7), "patch": at(op, 8),
		"parameters": {num: 9, kind: kMessages, msg: parametersItem},
	}}
	paths := &message{name: "Paths", entries: 2, entryValue: pathItem, extensions: 1}
	definitions := &message{name: "Definitions", entries: 1, entryValue: schema}
	info := &message{name: "Info", extensions: 7, fields: map[string]field{
		"title": {num: 1}, "version": {num: 2}, "description": {num: 3}, "termsOfService": {num: 4},
	}}
	return &message{name: "Document", extensions: 16, fields: map[string]field{
		"swagger": {num: 1}, "info": {num: 2, kind: kMessage, msg: info},
		"host": {num: 3}, "basePath": {num: 4},
		"schemes": {num: 5, kind: kStrings}, "consumes": {num: 6, kind: kStrings}, "produces": {num: 7, kind: kStrings},
		"paths":       {num: 8, kind: kMessage, msg: paths},
		"definitions": {num: 9, kind: kMessage, msg: definitions},
	}}
}

// member is obj[key] when v is a JSON object, else nil.
func member(v any, key string) any {
	obj, _ := v.(map[string]any)
	return obj[key]
}
