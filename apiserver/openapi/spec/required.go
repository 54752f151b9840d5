package spec

// isRequired says whether the definition of Go type typeName lists the
// property in "required". Kubernetes' generator requires a field unless
// its comment says +optional or its json tag says omitempty, and requires
// it in any case when the comment says +required (kube-openapi
// pkg/generators/openapi.go, isOptional). kubeloop's comments carry no
// markers, so the json tag decides and the two tables below record where
// Kubernetes' markers (k8s.io/api v0.37.2) or tags say otherwise; the
// conformance suite compares the result with k8s.io/api's own.
func isRequired(typeName, property string, opts jsonOptions) bool {
	key := typeName + "." + property
	switch key {
	// +required although omitempty.
	case "ReplicaSet.spec", "Deployment.spec",
		"PodCertificateProjection.signerName", "PodCertificateProjection.keyType",
		"ImageVolumeStatus.imageRef",
		"ContainerRestartRule.action", "ContainerRestartRuleOnExitCodes.operator":
		return true
	// +optional although not omitempty.
	case "TypedObjectReference.apiGroup", "TypedLocalObjectReference.apiGroup",
		"ProjectedVolumeSource.sources", "GRPCAction.service",
		"NodeRuntimeHandler.name", "ContainerImage.names",
		"Event.reportingComponent", "Event.reportingInstance",
		"ReplicaSetCondition.type", "ReplicaSetCondition.status",
		"DeploymentCondition.type", "DeploymentCondition.status",
		"PodFailurePolicyOnPodConditionsPattern.status",
		"Role.rules", "ClusterRole.rules", "RoleRef.apiGroup",
		"CustomResourceDefinitionStatus.conditions", "CustomResourceDefinitionStatus.acceptedNames",
		"CustomResourceDefinitionStatus.storedVersions",
		"TokenRequest.spec", "TokenRequestSpec.audiences", "TokenRequestSpec.expirationSeconds",
		"TokenRequestSpec.boundObjectRef", "TokenRequestStatus.token", "TokenRequestStatus.expirationTimestamp":
		return false
	}
	if len(typeName) > 4 && typeName[len(typeName)-4:] == "List" && property == "metadata" {
		// Every Kubernetes list has ListMeta `json:"metadata,omitempty"`;
		// kubeloop's List drops the omitempty, which encoding/json ignores
		// on a struct anyway.
		return false
	}
	return !opts.omitempty
}
