// Package field is the vocabulary every check of apiextensions speaks: a
// path to a field ("spec.versions[0].schema.openAPIV3Schema.properties[spec].type",
// "spec.ports[1].name") and an error about it, worded as Kubernetes words
// it, so that a 422 lists each problem the way kubectl users know.
//
// Where it sits: below everything in apiserver/apiextensions. CRD
// validation, structural-schema checks, custom-resource validation,
// pruning reports and CEL rules all return an ErrorList; the apiserver
// turns one into a 422 Invalid Status with ToStatusError (one
// api.StatusCause per error, duplicates dropped, the message
// `CronTab.stable.example.com "x" is invalid: [spec.replicas: Invalid value: ...]`).
//
// Kubernetes counterpart (v1.37.2):
// staging/src/k8s.io/apimachinery/pkg/util/validation/field (path.go:
// Path, NewPath, Child, Index, Key; errors.go: Error, ErrorBody, Required,
// Invalid, TypeInvalid, NotSupported, Forbidden, TooLong, TooMany,
// Duplicate, ErrorList) and apimachinery/pkg/api/errors (NewInvalid).
//
// What we simplify: a Path is an immutable string rather than a linked
// list (every error prints it anyway); no Origin, declarative-validation
// markers or ErrorList filtering. apiserver/admission has the same shapes
// unexported for the built-in kinds; this package is exported because
// several apiextensions packages share it.
package field
