// Package greeter is the last step of the reading path: a resource type
// defined as data (greeting-crd.yaml), then a controller for it in about
// fifty lines (greeter.go), on kubeloop's own packages — the client's
// discovery and dynamic client, a shared informer and its lister, a
// workqueue — with exactly the skeleton of every other kubeloop controller
// (sample-controller's: NewController, Run, processNextWorkItem, sync).
//
// For each Greeting it keeps a ConfigMap of the same name whose data.message
// is the Greeting's spec.message, owned by the Greeting (so the garbage
// collector removes it with its Greeting), and reports the ConfigMap's
// name and the generation it published in the Greeting's status.
//
// Kubernetes counterpart: k8s.io/sample-controller (controller.go), which
// does the same for its Foo kind with generated typed clients; here the
// kind has no Go type and is read as *api.Unstructured.
//
// It is part of the main module (a package, not a command), so its test
// runs with the others: greeter_test.go applies the CRD to a real
// apiserver and checks what the controller does.
package greeter
