// Package secret is the registry of Secrets: their strategy and REST
// storage.
//
// Where it sits on the spine: `kubectl create secret` lands here; kubelets
// read Secrets to mount them and to pull images. Secrets have neither spec
// nor status (no generation, no /status): the object is its data. By the
// time the strategy sees a Secret, defaulting has already merged stringData
// into data and set the type (admission.Defaulting; Kubernetes does both
// while decoding).
//
// Kubernetes counterparts (v1.37.2): pkg/registry/core/secret/strategy.go
// (strategy.PrepareForCreate, PrepareForUpdate, Validate, ValidateUpdate,
// SelectableFields) and pkg/registry/core/secret/storage/storage.go
// (NewREST).
//
// What we simplify: no encryption at rest (Kubernetes can encrypt Secrets
// in etcd with an EncryptionConfiguration; kubeloop stores them as is), no
// warnings about invalid data of well-known types.
package secret
