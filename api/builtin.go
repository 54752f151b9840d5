package api

import (
	"fmt"
	"strconv"
)

// builtinKinds is the table of every kind kubeloop serves, in the order
// discovery lists them. Binding and Scale are not here: they are bodies of
// subresources, never stored (see SubresourceKind).
func builtinKinds() []ResourceInfo {
	return []ResourceInfo{
		{
			Version: "v1", Kind: "Pod", Resource: "pods", Singular: "pod",
			ShortNames: []string{"po"}, Categories: []string{"all"}, Namespaced: true,
			HasSpec: true, HasStatus: true, Subresources: []string{"binding"},
			New:                  func() Object { return &Pod{} },
			NewList:              func() ListObject { return &PodList{} },
			Fields:               podFields,
			FieldLabelConversion: podFieldLabels(),
		},
		{
			Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Singular: "configmap",
			ShortNames: []string{"cm"}, Namespaced: true,
			New:     func() Object { return &ConfigMap{} },
			NewList: func() ListObject { return &ConfigMapList{} },
		},
		{
			Version: "v1", Kind: "Node", Resource: "nodes", Singular: "node",
			ShortNames: []string{"no"}, HasSpec: true, HasStatus: true,
			New:                  func() Object { return &Node{} },
			NewList:              func() ListObject { return &NodeList{} },
			Fields:               nodeFields,
			FieldLabelConversion: supportedFieldLabels("metadata.name", "spec.unschedulable"),
		},
		{
			Version: "v1", Kind: "Namespace", Resource: "namespaces", Singular: "namespace",
			ShortNames: []string{"ns"}, HasSpec: true, HasStatus: true, Subresources: []string{"finalize"},
			New:                  func() Object { return &Namespace{} },
			NewList:              func() ListObject { return &NamespaceList{} },
			Fields:               namespaceFields,
			FieldLabelConversion: supportedFieldLabels("metadata.name", "status.phase"),
		},
		{
			Version: "v1", Kind: "Event", Resource: "events", Singular: "event",
			ShortNames: []string{"ev"}, Namespaced: true,
			New:                  func() Object { return &Event{} },
			NewList:              func() ListObject { return &EventList{} },
			Fields:               eventFields,
			FieldLabelConversion: eventFieldLabels(),
		},
		{
			Version: "v1", Kind: "Secret", Resource: "secrets", Singular: "secret",
			Namespaced:           true,
			New:                  func() Object { return &Secret{} },
			NewList:              func() ListObject { return &SecretList{} },
			Fields:               secretFields,
			FieldLabelConversion: secretFieldLabels(),
		},
		{
			Version: "v1", Kind: "ServiceAccount", Resource: "serviceaccounts", Singular: "serviceaccount",
			ShortNames: []string{"sa"}, Namespaced: true, Subresources: []string{"token"},
			New:     func() Object { return &ServiceAccount{} },
			NewList: func() ListObject { return &ServiceAccountList{} },
		},
		{
			Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Singular: "deployment",
			ShortNames: []string{"deploy"}, Categories: []string{"all"}, Namespaced: true,
			HasSpec: true, HasStatus: true, Subresources: []string{"scale"},
			New:     func() Object { return &Deployment{} },
			NewList: func() ListObject { return &DeploymentList{} },
		},
		{
			Group: "apps", Version: "v1", Kind: "ReplicaSet", Resource: "replicasets", Singular: "replicaset",
			ShortNames: []string{"rs"}, Categories: []string{"all"}, Namespaced: true,
			HasSpec: true, HasStatus: true, Subresources: []string{"scale"},
			New:     func() Object { return &ReplicaSet{} },
			NewList: func() ListObject { return &ReplicaSetList{} },
		},
		{
			Group: "batch", Version: "v1", Kind: "Job", Resource: "jobs", Singular: "job",
			Categories: []string{"all"}, Namespaced: true, HasSpec: true, HasStatus: true,
			New:                  func() Object { return &Job{} },
			NewList:              func() ListObject { return &JobList{} },
			Fields:               jobFields,
			FieldLabelConversion: jobFieldLabels,
		},
		{
			Group: "coordination.k8s.io", Version: "v1", Kind: "Lease", Resource: "leases", Singular: "lease",
			Namespaced: true, HasSpec: true,
			New:     func() Object { return &Lease{} },
			NewList: func() ListObject { return &LeaseList{} },
		},
		{
			Group: RBACGroupName, Version: "v1", Kind: "ClusterRoleBinding", Resource: "clusterrolebindings", Singular: "clusterrolebinding",
			New:     func() Object { return &ClusterRoleBinding{} },
			NewList: func() ListObject { return &ClusterRoleBindingList{} },
		},
		{
			Group: RBACGroupName, Version: "v1", Kind: "ClusterRole", Resource: "clusterroles", Singular: "clusterrole",
			New:     func() Object { return &ClusterRole{} },
			NewList: func() ListObject { return &ClusterRoleList{} },
		},
		{
			Group: RBACGroupName, Version: "v1", Kind: "RoleBinding", Resource: "rolebindings", Singular: "rolebinding",
			Namespaced: true,
			New:        func() Object { return &RoleBinding{} },
			NewList:    func() ListObject { return &RoleBindingList{} },
		},
		{
			Group: RBACGroupName, Version: "v1", Kind: "Role", Resource: "roles", Singular: "role",
			Namespaced: true,
			New:        func() Object { return &Role{} },
			NewList:    func() ListObject { return &RoleList{} },
		},
		{
			Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition",
			Resource: "customresourcedefinitions", Singular: "customresourcedefinition",
			ShortNames: []string{"crd", "crds"}, Categories: []string{"api-extensions"},
			HasSpec: true, HasStatus: true,
			New:     func() Object { return &CustomResourceDefinition{} },
			NewList: func() ListObject { return &CustomResourceDefinitionList{} },
		},
	}
}

// The field selectors below are the ones Kubernetes registers for each kind
// (pkg/registry/core/pod/strategy.go ToSelectableFields and friends).

func podFields(obj Object) map[string]string {
	p := obj.(*Pod)
	return map[string]string{
		"spec.nodeName":            p.Spec.NodeName,
		"spec.restartPolicy":       string(p.Spec.RestartPolicy),
		"spec.schedulerName":       p.Spec.SchedulerName,
		"spec.serviceAccountName":  p.Spec.ServiceAccountName,
		"spec.hostNetwork":         strconv.FormatBool(p.Spec.HostNetwork),
		"status.phase":             string(p.Status.Phase),
		"status.podIP":             p.Status.PodIP,
		"status.nominatedNodeName": p.Status.NominatedNodeName,
	}
}

func nodeFields(obj Object) map[string]string {
	n := obj.(*Node)
	return map[string]string{"spec.unschedulable": strconv.FormatBool(n.Spec.Unschedulable)}
}

func namespaceFields(obj Object) map[string]string {
	return map[string]string{"status.phase": string(obj.(*Namespace).Status.Phase)}
}

func eventFields(obj Object) map[string]string {
	e := obj.(*Event)
	return map[string]string{
		"involvedObject.kind":            e.InvolvedObject.Kind,
		"involvedObject.namespace":       e.InvolvedObject.Namespace,
		"involvedObject.name":            e.InvolvedObject.Name,
		"involvedObject.uid":             e.InvolvedObject.UID,
		"involvedObject.apiVersion":      e.InvolvedObject.APIVersion,
		"involvedObject.resourceVersion": e.InvolvedObject.ResourceVersion,
		"involvedObject.fieldPath":       e.InvolvedObject.FieldPath,
		"reason":                         e.Reason,
		"reportingComponent":             e.ReportingController,
		"source":                         e.Source.Component,
		"type":                           e.Type,
	}
}

// The field label conversions say which fields a field selector may name
// and how an unknown one is refused; kinds without one (ConfigMap,
// ServiceAccount, Deployment, ReplicaSet, Lease) get
// ResourceInfo.ConvertFieldLabel's default. Kubernetes:
// pkg/apis/core/v1/conversion.go (addConversionFuncs,
// AddFieldLabelConversionsForEvent, AddFieldLabelConversionsForNamespace,
// AddFieldLabelConversionsForSecret) and pkg/apis/batch/v1/conversion.go
// (addConversionFuncs).

// supportedFieldLabels accepts the given fields as they are and refuses
// any other in the words of Kubernetes' per-kind conversion functions.
func supportedFieldLabels(labels ...string) func(label, value string) (string, string, error) {
	known := make(map[string]bool, len(labels))
	for _, l := range labels {
		known[l] = true
	}
	return func(label, value string) (string, string, error) {
		if !known[label] {
			return "", "", fmt.Errorf("field label not supported: %s", label)
		}
		return label, value, nil
	}
}

// podFieldLabels is Kubernetes' list for pods, which has two fields that
// podFields does not: status.podIPs, accepted but carried by no pod (so it
// matches as ""), and spec.host, the name old clients used for
// spec.nodeName.
func podFieldLabels() func(label, value string) (string, string, error) {
	known := supportedFieldLabels("metadata.name", "metadata.namespace", "spec.nodeName",
		"spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork",
		"status.phase", "status.podIP", "status.podIPs", "status.nominatedNodeName")
	return func(label, value string) (string, string, error) {
		if label == "spec.host" {
			return "spec.nodeName", value, nil
		}
		return known(label, value)
	}
}

func eventFieldLabels() func(label, value string) (string, string, error) {
	return supportedFieldLabels("metadata.name", "metadata.namespace",
		"involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid",
		"involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath",
		"reason", "reportingComponent", "source", "type")
}

// secretFieldLabels is AddFieldLabelConversionsForSecret.
func secretFieldLabels() func(label, value string) (string, string, error) {
	return supportedFieldLabels("metadata.name", "metadata.namespace", "type")
}

// jobFieldLabels is batch/v1's conversion for Jobs, which words its refusal
// its own way.
func jobFieldLabels(label, value string) (string, string, error) {
	switch label {
	case "metadata.name", "metadata.namespace", "status.successful":
		return label, value, nil
	}
	return "", "", fmt.Errorf("field label %q not supported for batchv1.Job", label)
}

// secretFields: kubelets and controllers look secrets up by type
// (pkg/registry/core/secret/strategy.go SelectableFields).
func secretFields(obj Object) map[string]string {
	return map[string]string{"type": string(obj.(*Secret).Type)}
}

// jobFields: pkg/registry/batch/job/strategy.go JobToSelectableFields.
func jobFields(obj Object) map[string]string {
	return map[string]string{"status.successful": strconv.Itoa(int(obj.(*Job).Status.Succeeded))}
}

// KindInfo is the group, version and kind of a body that is not a stored
// resource: subresource bodies and options.
type KindInfo struct {
	Group   string
	Version string
	Kind    string
}

// GroupVersion is the apiVersion string.
func (k KindInfo) GroupVersion() string {
	if k.Group == "" {
		return k.Version
	}
	return k.Group + "/" + k.Version
}

// SubresourceKind returns the kind of the body of a subresource other than
// status: "binding" → v1 Binding, "scale" → autoscaling/v1 Scale. Discovery
// lists these kinds for pods/binding, replicasets/scale and deployments/scale.
func SubresourceKind(subresource string) (KindInfo, bool) {
	switch subresource {
	case "binding":
		return KindInfo{Version: "v1", Kind: "Binding"}, true
	case "scale":
		return KindInfo{Group: "autoscaling", Version: "v1", Kind: "Scale"}, true
	case "finalize":
		// namespaces/NAME/finalize reads and writes a Namespace.
		return KindInfo{Version: "v1", Kind: "Namespace"}, true
	case "token":
		// serviceaccounts/NAME/token takes and answers a TokenRequest.
		return KindInfo{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest"}, true
	}
	return KindInfo{}, false
}

// bodyKind is the KindInfo of the Go types that travel on the wire without
// being registered resources.
func bodyKind(obj Object) (KindInfo, bool) {
	switch obj.(type) {
	case *Binding:
		return SubresourceKind("binding")
	case *Scale:
		return SubresourceKind("scale")
	case *TokenRequest:
		return SubresourceKind("token")
	case *Status:
		return KindInfo{Version: "v1", Kind: "Status"}, true
	}
	return KindInfo{}, false
}
