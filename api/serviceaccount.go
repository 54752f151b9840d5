package api

// ServiceAccount is an identity for the processes in pods: a pod runs as
// exactly one service account of its namespace (spec.serviceAccountName,
// "default" unless set), whose token it can present to the API (core/v1).
type ServiceAccount struct {
	// Kind "ServiceAccount" and apiVersion "v1".
	TypeMeta `json:",inline"`
	// Standard object metadata.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Secrets, in the same namespace, this account's pods may use. Only the
	// name of each reference is kept. Kubernetes no longer creates token
	// secrets automatically, so this is usually empty.
	Secrets []ObjectReference `json:"secrets,omitempty" protobuf:"bytes,2,rep,name=secrets" patchStrategy:"merge" patchMergeKey:"name" structType:"atomic"`
	// Registry credentials (Secrets in the same namespace) added to every
	// pod that runs as this account.
	ImagePullSecrets []LocalObjectReference `json:"imagePullSecrets,omitempty" protobuf:"bytes,3,rep,name=imagePullSecrets"`
	// Whether pods mount an API token by default; a pod's own setting wins.
	AutomountServiceAccountToken *bool `json:"automountServiceAccountToken,omitempty" protobuf:"varint,4,opt,name=automountServiceAccountToken"`
}

// ServiceAccountList is a list of ServiceAccounts.
type ServiceAccountList = List[ServiceAccount, *ServiceAccount]

// DefaultServiceAccountName is the account every namespace gets and every
// pod uses unless it names another.
const DefaultServiceAccountName = "default"
