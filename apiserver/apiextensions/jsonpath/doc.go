// Package jsonpath evaluates the simple JSONPaths a CRD names fields with —
// additionalPrinterColumns[].jsonPath, selectableFields[].jsonPath and the
// scale subresource's specReplicasPath, statusReplicasPath and
// labelSelectorPath — over a custom resource's unstructured content.
//
// A path is a sequence of steps: .name, ['name'] or ["name"], [N] (an
// index, negative from the end) and [*] (every element or value). That is
// every form those fields take in practice; selectableFields and the scale
// paths allow only .name steps (checked by CRD validation).
//
// Kubernetes counterpart (v1.37.2): staging/src/k8s.io/client-go/util/jsonpath
// (JSONPath.FindResults), which the CR table convertor
// (apiextensions-apiserver pkg/registry/customresource/tableconvertor) and
// the field selectors run with "{" + path + "}".
//
// What we leave out: filters ([?(@.x==1)]), recursive descent (..),
// slices ([1:3]), unions and the template syntax around paths.
package jsonpath
