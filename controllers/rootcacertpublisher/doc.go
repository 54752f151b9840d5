// Package rootcacertpublisher is the controller that keeps a ConfigMap
// named kube-root-ca.crt in every namespace, holding the CA bundle that
// signs the apiserver's serving certificate under the key ca.crt, so a
// pod can verify the apiserver it talks to.
//
// Where it sits on the spine: a controller like the others: namespaces
// and ConfigMaps through informers, writes through the API. A namespace
// added, or the ConfigMap changed or deleted, queues the namespace.
//
// Kubernetes counterpart (v1.37.2): pkg/controller/certificates/
// rootcacertpublisher/publisher.go (NewPublisher, syncNamespace,
// configMapDeleted, configMapUpdated). The CA comes from the controller
// manager's configuration (kube-controller-manager's --root-ca-file).
//
// What we simplify: nothing of substance; the publisher has no metrics of
// its own beyond the workqueue's.
package rootcacertpublisher
