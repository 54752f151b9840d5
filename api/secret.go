package api

// Secret holds a small amount of confidential data — passwords, tokens,
// keys — that pods consume as files or environment variables (core/v1).
// Values are bytes, base64 in JSON; Kubernetes does not encrypt them by
// itself.
type Secret struct {
	// Kind "Secret" and apiVersion "v1".
	TypeMeta `json:",inline"`
	// Standard object metadata.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// When true, data and immutable can never change again (the Secret can
	// only be deleted), which lets kubelets stop watching it.
	Immutable *bool `json:"immutable,omitempty" protobuf:"varint,5,opt,name=immutable"`
	// The secret values by key. Keys are made of alphanumerics, '-', '_'
	// and '.'; all values together may hold at most 1 MiB.
	Data map[string][]byte `json:"data,omitempty" protobuf:"bytes,2,rep,name=data"`
	// A write-only convenience: plain-text values the server merges into
	// data (overriding keys there) before storing. It is never returned.
	StringData map[string]string `json:"stringData,omitempty" protobuf:"bytes,4,rep,name=stringData"`
	// What the data is for, which decides the keys it must have. Default
	// Opaque (anything); it cannot change after creation.
	Type SecretType `json:"type,omitempty" protobuf:"bytes,3,opt,name=type"`
}

// SecretList is a list of Secrets.
type SecretList = List[Secret, *Secret]

// SecretType names the purpose of a Secret.
type SecretType string

// MaxSecretSize is the most data, in bytes, one Secret may hold: every
// object must fit in one etcd value and one watch event.
const MaxSecretSize = 1024 * 1024

// The secret types Kubernetes knows, and the keys each requires.
const (
	// SecretTypeOpaque is arbitrary user data, the default.
	SecretTypeOpaque SecretType = "Opaque"

	// SecretTypeServiceAccountToken holds a long-lived token of the service
	// account named by the ServiceAccountNameKey annotation (required).
	SecretTypeServiceAccountToken SecretType = "kubernetes.io/service-account-token"
	// ServiceAccountNameKey is the annotation naming the token's service account.
	ServiceAccountNameKey = "kubernetes.io/service-account.name"
	// ServiceAccountUIDKey is the annotation with that service account's uid.
	ServiceAccountUIDKey = "kubernetes.io/service-account.uid"
	// ServiceAccountTokenKey is the data key of the token itself.
	ServiceAccountTokenKey = "token"
	// ServiceAccountKubeconfigKey is the data key of an optional kubeconfig.
	ServiceAccountKubeconfigKey = "kubernetes.kubeconfig"
	// ServiceAccountRootCAKey is the data key of the cluster's CA bundle.
	ServiceAccountRootCAKey = "ca.crt"
	// ServiceAccountNamespaceKey is the data key of the token's namespace.
	ServiceAccountNamespaceKey = "namespace"

	// SecretTypeDockercfg holds a legacy ~/.dockercfg file under DockerConfigKey.
	SecretTypeDockercfg SecretType = "kubernetes.io/dockercfg"
	// DockerConfigKey is the data key of a .dockercfg file (JSON).
	DockerConfigKey = ".dockercfg"

	// SecretTypeDockerConfigJSON holds a ~/.docker/config.json file under
	// DockerConfigJSONKey; `kubectl create secret docker-registry` makes one.
	SecretTypeDockerConfigJSON SecretType = "kubernetes.io/dockerconfigjson"
	// DockerConfigJSONKey is the data key of a config.json file (JSON).
	DockerConfigJSONKey = ".dockerconfigjson"

	// SecretTypeBasicAuth holds a username and a password (at least one).
	SecretTypeBasicAuth SecretType = "kubernetes.io/basic-auth"
	// BasicAuthUsernameKey is the data key of the user name.
	BasicAuthUsernameKey = "username"
	// BasicAuthPasswordKey is the data key of the password or token.
	BasicAuthPasswordKey = "password"

	// SecretTypeSSHAuth holds an SSH private key under SSHAuthPrivateKey.
	SecretTypeSSHAuth SecretType = "kubernetes.io/ssh-auth"
	// SSHAuthPrivateKey is the data key of the private key (required, non-empty).
	SSHAuthPrivateKey = "ssh-privatekey"

	// SecretTypeTLS holds a certificate and its key, both required.
	SecretTypeTLS SecretType = "kubernetes.io/tls"
	// TLSCertKey is the data key of the PEM certificate chain.
	TLSCertKey = "tls.crt"
	// TLSPrivateKeyKey is the data key of the PEM private key.
	TLSPrivateKeyKey = "tls.key"

	// SecretTypeBootstrapToken holds a token nodes use to join the cluster
	// (kube-system only, by convention).
	SecretTypeBootstrapToken SecretType = "bootstrap.kubernetes.io/token"
)
