package api

// CustomResourceDefinition (apiextensions.k8s.io/v1) declares a new kind as
// data: its group, names, scope and versions, each version with a schema.
// Once the apiserver accepts the names, it serves the kind at
// /apis/<group>/<version>/[namespaces/<ns>/]<plural> like a built-in one.
// The object's name must be "<spec.names.plural>.<spec.group>".
//
// Kubernetes: staging/src/k8s.io/apiextensions-apiserver/pkg/apis/
// apiextensions/v1/types.go (v1.37.2). Kubernetes validates and stores an
// internal version (pkg/apis/apiextensions) converted from v1; kubeloop has
// only v1, so validation reads these types directly.
type CustomResourceDefinition struct {
	// Kind "CustomResourceDefinition", apiVersion "apiextensions.k8s.io/v1".
	TypeMeta `json:",inline"`
	// Standard object metadata; the name is "<plural>.<group>".
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// What the user asks for.
	Spec CustomResourceDefinitionSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	// What the apiserver made of it: conditions, the names it serves, the
	// versions objects were ever stored in.
	Status CustomResourceDefinitionStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// CustomResourceDefinitionList is a list of CustomResourceDefinitions.
type CustomResourceDefinitionList = List[CustomResourceDefinition, *CustomResourceDefinition]

// CustomResourceCleanupFinalizer keeps a deleted CRD until every one of its
// custom resources is gone.
const CustomResourceCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io"

// KubeAPIApprovedAnnotation must be set (to a pull request URL, or to a
// value starting with "unapproved") on a CRD whose group is k8s.io,
// kubernetes.io or a subdomain of them: those groups belong to the
// Kubernetes project.
const KubeAPIApprovedAnnotation = "api-approved.kubernetes.io"

// CustomResourceDefinitionSpec is the definition proper.
type CustomResourceDefinitionSpec struct {
	// The API group, a DNS subdomain with at least one dot ("stable.example.com").
	// It cannot change.
	Group string `json:"group" protobuf:"bytes,1,opt,name=group"`
	// The resource, kind and other names the kind is served under.
	Names CustomResourceDefinitionNames `json:"names" protobuf:"bytes,3,opt,name=names"`
	// Cluster or Namespaced. It cannot change.
	Scope ResourceScope `json:"scope" protobuf:"bytes,4,opt,name=scope"`
	// Every version of the kind; exactly one of them is the storage version.
	// The order is the preference order of discovery after version-name
	// priority.
	Versions []CustomResourceDefinitionVersion `json:"versions" protobuf:"bytes,7,rep,name=versions" listType:"atomic"`
	// How objects move between versions; strategy None when absent.
	Conversion *CustomResourceConversion `json:"conversion,omitempty" protobuf:"bytes,9,opt,name=conversion"`
	// Legacy (apiextensions v1beta1) behaviour of keeping unknown fields in
	// storage. In v1 it may only be false; true exists so old objects can
	// be migrated to a schema that prunes.
	PreserveUnknownFields bool `json:"preserveUnknownFields,omitempty" protobuf:"varint,10,opt,name=preserveUnknownFields"`
}

// ResourceScope says whether custom resources live in a namespace.
type ResourceScope string

// The two scopes.
const (
	ClusterScoped   ResourceScope = "Cluster"
	NamespaceScoped ResourceScope = "Namespaced"
)

// CustomResourceDefinitionNames are the names the kind is served under.
type CustomResourceDefinitionNames struct {
	// The resource in URLs: lowercase, e.g. "crontabs".
	Plural string `json:"plural" protobuf:"bytes,1,opt,name=plural"`
	// The lowercase singular ("crontab"); defaults to the kind lowercased.
	Singular string `json:"singular,omitempty" protobuf:"bytes,2,opt,name=singular"`
	// Abbreviations kubectl accepts ("ct"); lowercase.
	ShortNames []string `json:"shortNames,omitempty" protobuf:"bytes,3,rep,name=shortNames" listType:"atomic"`
	// The CamelCase kind of the objects ("CronTab").
	Kind string `json:"kind" protobuf:"bytes,4,opt,name=kind"`
	// The kind of a list; defaults to "<kind>List".
	ListKind string `json:"listKind,omitempty" protobuf:"bytes,5,opt,name=listKind"`
	// Groupings such as "all" that `kubectl get <category>` expands.
	Categories []string `json:"categories,omitempty" protobuf:"bytes,6,rep,name=categories" listType:"atomic"`
}

// CustomResourceDefinitionVersion is one version of the kind.
type CustomResourceDefinitionVersion struct {
	// The version in URLs and apiVersion ("v1", "v1beta2"), a DNS label.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Whether the version is served over REST.
	Served bool `json:"served" protobuf:"varint,2,opt,name=served"`
	// Whether objects are written to etcd in this version; exactly one
	// version has it.
	Storage bool `json:"storage" protobuf:"varint,3,opt,name=storage"`
	// Whether requests to this version get a deprecation warning.
	Deprecated bool `json:"deprecated,omitempty" protobuf:"varint,7,opt,name=deprecated"`
	// The warning text instead of the default one; only with deprecated.
	DeprecationWarning *string `json:"deprecationWarning,omitempty" protobuf:"bytes,8,opt,name=deprecationWarning"`
	// The OpenAPI v3 schema objects of this version must follow.
	Schema *CustomResourceValidation `json:"schema,omitempty" protobuf:"bytes,4,opt,name=schema"`
	// The status and scale subresources of this version.
	Subresources *CustomResourceSubresources `json:"subresources,omitempty" protobuf:"bytes,5,opt,name=subresources"`
	// Extra columns of `kubectl get`; the default is an Age column.
	AdditionalPrinterColumns []CustomResourceColumnDefinition `json:"additionalPrinterColumns,omitempty" protobuf:"bytes,6,rep,name=additionalPrinterColumns" listType:"atomic"`
	// Fields usable in field selectors beyond metadata.name and
	// metadata.namespace.
	SelectableFields []SelectableField `json:"selectableFields,omitempty" protobuf:"bytes,9,rep,name=selectableFields" listType:"atomic"`
}

// SelectableField names one field selectors may use.
type SelectableField struct {
	// A simple JSON path into the object (".spec.color"), to a string,
	// integer or boolean field.
	JSONPath string `json:"jsonPath" protobuf:"bytes,1,opt,name=jsonPath"`
}

// CustomResourceColumnDefinition is one column of Table output.
type CustomResourceColumnDefinition struct {
	// The header.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// An OpenAPI type: integer, number, string, boolean or date.
	Type string `json:"type" protobuf:"bytes,2,opt,name=type"`
	// An OpenAPI format hint ("int32", "byte", "date-time", ...).
	Format string `json:"format,omitempty" protobuf:"bytes,3,opt,name=format"`
	// What the column means.
	Description string `json:"description,omitempty" protobuf:"bytes,4,opt,name=description"`
	// 0 shows in the default view; higher only with -o wide.
	Priority int32 `json:"priority,omitempty" protobuf:"varint,5,opt,name=priority"`
	// A simple JSON path evaluated against each object for the cell.
	JSONPath string `json:"jsonPath" protobuf:"bytes,6,opt,name=jsonPath"`
}

// CustomResourceValidation holds a version's schema.
type CustomResourceValidation struct {
	// The structural OpenAPI v3 schema of the whole object.
	OpenAPIV3Schema *JSONSchemaProps `json:"openAPIV3Schema,omitempty" protobuf:"bytes,1,opt,name=openAPIV3Schema"`
}

// CustomResourceSubresources switches on the status and scale subresources.
type CustomResourceSubresources struct {
	// When set, .status is written only through /status, and writes to the
	// main resource ignore it.
	Status *CustomResourceSubresourceStatus `json:"status,omitempty" protobuf:"bytes,1,opt,name=status"`
	// When set, /scale serves an autoscaling/v1 Scale built from the paths.
	Scale *CustomResourceSubresourceScale `json:"scale,omitempty" protobuf:"bytes,2,opt,name=scale"`
}

// CustomResourceSubresourceStatus has no fields: its presence is the switch.
type CustomResourceSubresourceStatus struct{}

// CustomResourceSubresourceScale maps Scale's fields into the object.
type CustomResourceSubresourceScale struct {
	// The path of the desired replicas under .spec (".spec.replicas").
	SpecReplicasPath string `json:"specReplicasPath" protobuf:"bytes,1,opt,name=specReplicasPath"`
	// The path of the observed replicas under .status.
	StatusReplicasPath string `json:"statusReplicasPath" protobuf:"bytes,2,opt,name=statusReplicasPath"`
	// The path under .status of a serialized label selector string, for
	// the Scale's status.selector (what HorizontalPodAutoscalers read).
	LabelSelectorPath *string `json:"labelSelectorPath,omitempty" protobuf:"bytes,3,opt,name=labelSelectorPath"`
}

// ConversionStrategyType is how objects are converted between versions.
type ConversionStrategyType string

// The two strategies.
const (
	// NoneConverter only rewrites apiVersion.
	NoneConverter ConversionStrategyType = "None"
	// WebhookConverter calls an external webhook.
	WebhookConverter ConversionStrategyType = "Webhook"
)

// CustomResourceConversion says how versions convert.
type CustomResourceConversion struct {
	// None or Webhook.
	Strategy ConversionStrategyType `json:"strategy" protobuf:"bytes,1,opt,name=strategy"`
	// The webhook to call; required with strategy Webhook, forbidden
	// otherwise.
	Webhook *WebhookConversion `json:"webhook,omitempty" protobuf:"bytes,2,opt,name=webhook"`
}

// WebhookConversion is a conversion webhook.
type WebhookConversion struct {
	// Where the webhook is.
	ClientConfig *WebhookClientConfig `json:"clientConfig,omitempty" protobuf:"bytes,2,opt,name=clientConfig"`
	// The ConversionReview versions the webhook understands, in
	// preference order ("v1", "v1beta1").
	ConversionReviewVersions []string `json:"conversionReviewVersions" protobuf:"bytes,3,rep,name=conversionReviewVersions" listType:"atomic"`
}

// WebhookClientConfig says how to reach a webhook: a URL or a service.
type WebhookClientConfig struct {
	// An https URL without user info, fragment or query.
	URL *string `json:"url,omitempty" protobuf:"bytes,3,opt,name=url"`
	// A service in the cluster.
	Service *ServiceReference `json:"service,omitempty" protobuf:"bytes,1,opt,name=service"`
	// PEM certificates to verify the webhook's serving certificate.
	CABundle []byte `json:"caBundle,omitempty" protobuf:"bytes,2,opt,name=caBundle"`
}

// ServiceReference names a service and the path and port on it.
type ServiceReference struct {
	// The service's namespace.
	Namespace string `json:"namespace" protobuf:"bytes,1,opt,name=namespace"`
	// The service's name.
	Name string `json:"name" protobuf:"bytes,2,opt,name=name"`
	// The URL path requests are sent to.
	Path *string `json:"path,omitempty" protobuf:"bytes,3,opt,name=path"`
	// The port, 1-65535; defaults to 443.
	Port *int32 `json:"port,omitempty" protobuf:"varint,4,opt,name=port"`
}

// CustomResourceDefinitionConditionType names a condition of a CRD.
type CustomResourceDefinitionConditionType string

// The condition types. Kubernetes calls them Established, NamesAccepted and
// so on; here they carry a CRD prefix because package api holds every kind
// and Terminating is already a pod-failure-policy word.
const (
	// CRDEstablished: the kind is served.
	CRDEstablished CustomResourceDefinitionConditionType = "Established"
	// CRDNamesAccepted: the names conflict with no other kind's.
	CRDNamesAccepted CustomResourceDefinitionConditionType = "NamesAccepted"
	// CRDNonStructuralSchema: a legacy schema is not structural.
	CRDNonStructuralSchema CustomResourceDefinitionConditionType = "NonStructuralSchema"
	// CRDTerminating: deletion is under way (custom resources are being
	// removed).
	CRDTerminating CustomResourceDefinitionConditionType = "Terminating"
	// CRDKubernetesAPIApprovalPolicyConformant: a protected group carries
	// the approval annotation.
	CRDKubernetesAPIApprovalPolicyConformant CustomResourceDefinitionConditionType = "KubernetesAPIApprovalPolicyConformant"
	// CRDStorageMigrating: objects are being migrated to a new storage
	// version.
	CRDStorageMigrating CustomResourceDefinitionConditionType = "StorageMigrating"
)

// CustomResourceDefinitionCondition is one observed state of a CRD.
type CustomResourceDefinitionCondition struct {
	// Which condition.
	Type CustomResourceDefinitionConditionType `json:"type" protobuf:"bytes,1,opt,name=type"`
	// True, False or Unknown.
	Status ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status"`
	// When the status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// A CamelCase word for why.
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// A sentence for humans.
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
	// The metadata.generation the condition was computed from.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,6,opt,name=observedGeneration"`
}

// CustomResourceDefinitionStatus is what the apiserver reports.
type CustomResourceDefinitionStatus struct {
	// The conditions; always written, empty as [].
	Conditions []CustomResourceDefinitionCondition `json:"conditions" protobuf:"bytes,1,rep,name=conditions" listType:"map" listMapKey:"type"`
	// The names actually served, which lag spec.names while a change is
	// checked for conflicts.
	AcceptedNames CustomResourceDefinitionNames `json:"acceptedNames" protobuf:"bytes,2,opt,name=acceptedNames"`
	// Every version objects were ever stored in; a version leaves the spec
	// only after it leaves this list (after a storage migration).
	StoredVersions []string `json:"storedVersions" protobuf:"bytes,3,rep,name=storedVersions" listType:"atomic"`
	// The metadata.generation the status reflects.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,4,opt,name=observedGeneration"`
}
