// Package names makes the names the apiserver generates: a base plus five
// random characters. The registry uses it for metadata.generateName, the
// ServiceAccount admission plugin for the token volume it adds to a pod
// (kube-api-access-xxxxx); it sits below both, so neither imports the other.
//
// Kubernetes counterpart (v1.37.2):
// staging/src/k8s.io/apiserver/pkg/storage/names/generate.go
// (SimpleNameGenerator.GenerateName).
//
// What we simplify: a function instead of a NameGenerator interface, since
// nothing substitutes another generator.
package names
