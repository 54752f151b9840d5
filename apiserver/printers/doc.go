// Package printers renders objects as the meta.k8s.io Tables `kubectl get`
// prints: for each kind the columns kube-apiserver serves (Ready, Status,
// Restarts and Age for pods; Desired, Current, Ready for ReplicaSets;
// Ready, Up-to-date, Available for Deployments; Status, Completions,
// Duration for Jobs, ...)
// and how to fill a row.
//
// Where it sits: off the reading path. It is a compatibility piece — kubectl
// works with plain lists too, only less readably. Each registry's Store
// holds a TableConvertor from here; the get, list and watch handlers use it
// when the Accept header asks for `as=Table`.
//
// Kubernetes counterparts (v1.37.2): pkg/printers/internalversion/printers.go
// (AddHandlers, printPod, printReplicaSet, printConfigMap, printNode,
// printNamespace, printEvent, printLease, printDeployment, printJob,
// printSecret, printServiceAccount), pkg/printers/tablegenerator.go
// (GenerateTable) and pkg/printers/storage/storage.go (TableConvertor);
// for CustomResourceDefinitions, apiextensions-apiserver's
// pkg/registry/customresourcedefinition/tableconvertor.
//
// What we simplify: one printer per kind chosen by a switch, not a
// registry of handler funcs; rows are always generated wide (kubectl hides
// priority-1 columns unless asked, as with Kubernetes); no column for
// readiness gates' detail or nominated nodes beyond the names.
package printers
