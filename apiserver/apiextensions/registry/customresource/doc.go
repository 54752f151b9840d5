// Package customresource is the registry of custom resources: the
// strategy, REST storage, serializers, Table columns and field selectors
// of one served version of a CustomResourceDefinition, all built from the
// CRD at run time. It is what makes "a resource type defined as data" a
// registry like any other: the generic Store, the generic handlers and
// the watch cache serve custom resources unchanged.
//
// The per-object pipeline, in the order Kubernetes runs it:
//
//	decode (serializers.go)  JSON or YAML → api.Unstructured; prune unknown
//	                         fields (reported to fieldValidation Strict/Warn),
//	                         drop nulls without defaults, apply defaults
//	prepare (strategy.go)    generation 1 / +1 on a change outside metadata
//	                         (and status, with the status subresource); the
//	                         main resource ignores status, /status the rest
//	validate (strategy.go)   ObjectMeta, the schema (every violation), CEL
//	                         rules with oldSelf on update — one 422
//	store                    the generic Store over etcd and the watch cache
//
// Where it sits: package apiextensions/crdserving builds a Version and its
// storage for every served version of an Established CRD.
//
// Kubernetes counterparts (v1.37.2), in staging/src/k8s.io/apiextensions-apiserver:
// pkg/registry/customresource/strategy.go (customResourceStrategy,
// PrepareForCreate, PrepareForUpdate, Validate, ValidateUpdate),
// status_strategy.go, etcd.go (NewStorage, scaleFromCustomResource; ScaleREST is generic.ScaleREST),
// validator.go, tableconvertor/tableconvertor.go, and
// pkg/apiserver/customresource_handler.go (schemaCoercingDecoder,
// unstructuredDefaulter, the selectable fields).
//
// Objects read from etcd are pruned and defaulted with the storage
// version's schema (ResourceInfo.Decoded, which the store calls).
//
// What we simplify: no
// ratcheting of validation on unchanged fields.
package customresource
