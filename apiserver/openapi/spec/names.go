package spec

import (
	"reflect"
	"strings"
)

// definitionName is the name Kubernetes gives the definition of a Go type
// of package api: its Go package path, reversed and dotted, plus the type
// name ("io.k8s.api.core.v1.Pod", "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta").
// kubeloop keeps all its types in one package, so the Kubernetes package
// of each is looked up by name (k8s.io/api's zz_generated.model_name.go,
// OpenAPIModelName, is the source of these facts); a list is named after
// its items' type ("io.k8s.api.core.v1.PodList").
func definitionName(t reflect.Type) string {
	return DefinitionName(goName(t))
}

// goName is the Go type name by which package api documents t: the type's
// own name, or for an instance of the generic List its alias ("PodList").
func goName(t reflect.Type) string {
	if items, ok := listItems(t); ok {
		return items.Name() + "List"
	}
	return t.Name()
}

// listItems reports whether t is an instance of api.List, and its items'
// type. reflect names an instance "List[kubeloop/api.Pod,*kubeloop/api.Pod]".
func listItems(t reflect.Type) (reflect.Type, bool) {
	if t.Kind() != reflect.Struct || !strings.HasPrefix(t.Name(), "List[") {
		return nil, false
	}
	f, ok := t.FieldByName("Items")
	if !ok || f.Type.Kind() != reflect.Slice {
		return nil, false
	}
	return f.Type.Elem(), true
}

// modelPackage is the Kubernetes package a type of package api mirrors, in
// definition-name form. Everything not listed is core/v1.
func modelPackage(goName string) string {
	switch strings.TrimSuffix(goName, "List") {
	case "ObjectMeta", "ListMeta", "TypeMeta", "OwnerReference", "ManagedFieldsEntry", "FieldsV1",
		"Time", "MicroTime", "LabelSelector", "LabelSelectorRequirement", "ShardInfo",
		"Status", "StatusDetails", "StatusCause", "DeleteOptions", "Preconditions",
		"WatchEvent", "Patch", "Condition", "FieldSelectorRequirement":
		return "io.k8s.apimachinery.pkg.apis.meta.v1"
	case "ReplicaSet", "ReplicaSetSpec", "ReplicaSetStatus", "ReplicaSetCondition",
		"Deployment", "DeploymentSpec", "DeploymentStatus", "DeploymentStrategy", "DeploymentCondition",
		"RollingUpdateDeployment":
		return "io.k8s.api.apps.v1"
	case "Job", "JobSpec", "JobStatus", "JobCondition", "JobSchedulingConfiguration",
		"PodFailurePolicy", "PodFailurePolicyRule", "PodFailurePolicyOnExitCodesRequirement",
		"PodFailurePolicyOnPodConditionsPattern", "SuccessPolicy", "SuccessPolicyRule",
		"UncountedTerminatedPods":
		return "io.k8s.api.batch.v1"
	case "WorkloadPodGroupSchedulingPolicy", "WorkloadPodGroupSchedulingConstraints",
		"WorkloadPodGroupBasicSchedulingPolicy", "WorkloadPodGroupGangSchedulingPolicy",
		"WorkloadPodGroupDisruptionMode", "WorkloadPodGroupSingleDisruptionMode",
		"WorkloadPodGroupAllDisruptionMode", "WorkloadPodGroupResourceClaim", "TopologyConstraint":
		// Job's alpha scheduling configuration reuses scheduling/v1alpha3's types.
		return "io.k8s.api.scheduling.v1alpha3"
	case "Lease", "LeaseSpec":
		return "io.k8s.api.coordination.v1"
	case "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding", "PolicyRule", "AggregationRule",
		"Subject", "RoleRef":
		return "io.k8s.api.rbac.v1"
	case "SelfSubjectAccessReview", "SelfSubjectAccessReviewSpec", "SubjectAccessReview", "SubjectAccessReviewSpec",
		"SubjectAccessReviewStatus", "ResourceAttributes", "NonResourceAttributes", "LabelSelectorAttributes",
		"FieldSelectorAttributes", "SelfSubjectRulesReview", "SelfSubjectRulesReviewSpec", "SubjectRulesReviewStatus",
		"ResourceRule", "NonResourceRule":
		return "io.k8s.api.authorization.v1"
	case "SelfSubjectReview", "SelfSubjectReviewStatus", "UserInfo", "TokenRequest", "TokenRequestSpec",
		"TokenRequestStatus", "BoundObjectReference":
		return "io.k8s.api.authentication.v1"
	case "Scale", "ScaleSpec", "ScaleStatus":
		return "io.k8s.api.autoscaling.v1"
	case "Quantity":
		return "io.k8s.apimachinery.pkg.api.resource"
	case "CustomResourceDefinition", "CustomResourceDefinitionSpec", "CustomResourceDefinitionNames",
		"CustomResourceDefinitionVersion", "SelectableField", "CustomResourceColumnDefinition",
		"CustomResourceValidation", "CustomResourceSubresources", "CustomResourceSubresourceStatus",
		"CustomResourceSubresourceScale", "CustomResourceConversion", "WebhookConversion",
		"WebhookClientConfig", "ServiceReference", "CustomResourceDefinitionCondition",
		"CustomResourceDefinitionStatus", "JSONSchemaProps", "ExternalDocumentation",
		"ValidationRule", "JSON", "JSONSchemaPropsOrArray", "JSONSchemaPropsOrBool", "JSONSchemaPropsOrStringArray":
		return "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1"
	case "IntOrString":
		return "io.k8s.apimachinery.pkg.util.intstr"
	case "RawExtension":
		return "io.k8s.apimachinery.pkg.runtime"
	}
	return "io.k8s.api.core.v1"
}

// DefinitionName is the definition name of the Go type of package api
// called goName: DefinitionName("Scale") is "io.k8s.api.autoscaling.v1.Scale".
func DefinitionName(goName string) string {
	return modelPackage(goName) + "." + goName
}
