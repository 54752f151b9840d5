// Package validate checks a custom resource against its CRD's structural
// schema and reports every violation with its field path, in Kubernetes'
// words: types (with nullable and x-kubernetes-int-or-string), required,
// enum, pattern, the formats Kubernetes knows, minimum/maximum (and
// exclusive), multipleOf, min/maxLength, min/maxItems, uniqueItems,
// min/maxProperties, additionalProperties, the allOf/anyOf/oneOf/not
// junctors, x-kubernetes-embedded-resource objects (apiVersion, kind,
// metadata), and the duplicates x-kubernetes-list-type set and map forbid.
//
// Where it sits: the custom-resource strategy of the apiserver runs it on
// create and update, after pruning and defaulting, and turns the list
// into a 422 (field.ErrorList.ToStatusError). A Validator is built once
// per CRD version, with its patterns compiled.
//
// Kubernetes counterpart (v1.37.2): apiextensions-apiserver
// pkg/apiserver/validation/validation.go (NewSchemaValidator,
// ValidateCustomResource, kubeOpenAPIResultToFieldErrors, which maps
// kube-openapi's errors to field errors: TooLong, TooMany, NotSupported,
// Required, TypeInvalid, Invalid) over kube-openapi's
// pkg/validation/validate (schema.go, type.go, validator.go,
// object_validator.go, slice_validator.go, schema_props.go) and its
// errors/schema.go messages; formats.go (supportedVersionedFormats);
// pkg/apiserver/schema/objectmeta/validation.go (Validate,
// validateEmbeddedResource) and pkg/apiserver/schema/listtype/validation.go
// (ValidateListSetsAndMaps).
//
// The Validator is the schema turned into a tree of nodes once (nodes.go)
// and walked per object (validator.go, junctors.go).
//
// What we simplify: one walk over the structural schema replaces
// converting it to a kube-openapi spec.Schema; properties are visited in
// sorted order (Kubernetes' order follows Go map iteration, so it varies);
// when no anyOf/oneOf branch matches, the errors of the branch with the
// fewest errors are added (kube-openapi picks by its match count); enum
// values compare numbers by value without kube-openapi's truncating
// conversion; of the number formats only int32 and float bound the range; the
// formats are checked by hand-written functions that follow go-openapi's
// strfmt closely but not byte for byte (isbn, creditcard and duration are
// simplified); ratcheting (unchanged invalid values allowed on update) is
// not done; embedded metadata checks name, generateName, namespace,
// labels and annotation keys only.
package validate
