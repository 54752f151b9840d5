// Package website is exercise 11: a controller for a custom resource. The
// Website kind (website-crd.yaml) has no Go type in kubeloop: the
// controller reads it as *api.Unstructured through the dynamic client and
// a shared informer, publishes each Website's HTML as a ConfigMap it owns
// (an ownerReference with controller: true, so the garbage collector
// deletes the ConfigMap with its Website), and reports what it did through
// the status subresource: the generation it acted on and a Ready
// condition, written only when they change. controller.go and status.go
// are given; sync.go, the reconcile, is the file to complete. README.md
// says what to build and how the grader runs.
package website
