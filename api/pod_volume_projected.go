package api

// This file holds the projected volume: one directory assembled from several
// sources, each written by the kubelet.

// ProjectedVolumeSource merges several sources (secrets, config maps, downward
// API files, service account tokens, trust bundles, pod certificates) into one
// directory.
type ProjectedVolumeSource struct {
	// The sources to merge, in order; each entry sets exactly one source.
	Sources []VolumeProjection `json:"sources" protobuf:"bytes,1,rep,name=sources" listType:"atomic"`
	// Permission bits of the files written, 0 to 0777 (JSON needs the decimal
	// form, 0 to 511); default 0644. Directories keep their mode, and fsGroup
	// may add bits.
	DefaultMode *int32 `json:"defaultMode,omitempty" protobuf:"varint,2,opt,name=defaultMode"`
	// UID that owns the files when an item sets no user of its own.
	// Alpha (AtomicWriteVolumeUserFields gate).
	DefaultUser *int64 `json:"defaultUser,omitempty" protobuf:"varint,3,opt,name=defaultUser"`
}

// VolumeProjection is one source of a projected volume; exactly one field is set.
type VolumeProjection struct {
	// Keys of a Secret, written as files.
	Secret *SecretProjection `json:"secret,omitempty" protobuf:"bytes,1,opt,name=secret"`
	// Pod fields and container resources, written as files.
	DownwardAPI *DownwardAPIProjection `json:"downwardAPI,omitempty" protobuf:"bytes,2,opt,name=downwardAPI"`
	// Keys of a ConfigMap, written as files.
	ConfigMap *ConfigMapProjection `json:"configMap,omitempty" protobuf:"bytes,3,opt,name=configMap"`
	// A token for the pod's service account, refreshed by the kubelet.
	ServiceAccountToken *ServiceAccountTokenProjection `json:"serviceAccountToken,omitempty" protobuf:"bytes,4,opt,name=serviceAccountToken"`
	// The PEM certificates of selected ClusterTrustBundle objects in one file,
	// kept up to date; the kubelet normalises, deduplicates and may reorder
	// them. Alpha (ClusterTrustBundleProjection gate).
	ClusterTrustBundle *ClusterTrustBundleProjection `json:"clusterTrustBundle,omitempty" protobuf:"bytes,5,opt,name=clusterTrustBundle"`
	// A private key the kubelet generates and a certificate chain a signer
	// issues for it through a PodCertificateRequest, rotated before expiry.
	// Containers are held back until the first certificate arrives.
	// Needs the PodCertificateProjection feature gate.
	PodCertificate *PodCertificateProjection `json:"podCertificate,omitempty" protobuf:"bytes,6,opt,name=podCertificate"`
}

// SecretProjection is a Secret as a projected source: like SecretVolumeSource,
// but the file mode comes from the projected volume.
type SecretProjection struct {
	// Name of the Secret, in the pod's namespace.
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	// Which keys to write, and where. Unset writes every key under its own name;
	// set writes only the listed keys. A listed key missing from the Secret
	// fails the mount unless optional is true.
	Items []KeyToPath `json:"items,omitempty" protobuf:"bytes,2,rep,name=items" listType:"atomic"`
	// When true the pod starts even if the Secret or a listed key is missing.
	Optional *bool `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
}

// DownwardAPIProjection is the downward API as a projected source: like
// DownwardAPIVolumeSource, but the file mode comes from the projected volume.
type DownwardAPIProjection struct {
	// The files to write, one per entry.
	Items []DownwardAPIVolumeFile `json:"items,omitempty" protobuf:"bytes,1,rep,name=items" listType:"atomic"`
}

// ConfigMapProjection is a ConfigMap as a projected source: like
// ConfigMapVolumeSource, but the file mode comes from the projected volume.
type ConfigMapProjection struct {
	// Name of the ConfigMap, in the pod's namespace.
	LocalObjectReference `json:"" protobuf:"bytes,1,opt,name=localObjectReference"`
	// Which keys to write, and where. Unset writes every key under its own name;
	// set writes only the listed keys. A listed key missing from the ConfigMap
	// fails the mount unless optional is true.
	Items []KeyToPath `json:"items,omitempty" protobuf:"bytes,2,rep,name=items" listType:"atomic"`
	// When true the pod starts even if the ConfigMap or a listed key is missing.
	Optional *bool `json:"optional,omitempty" protobuf:"varint,4,opt,name=optional"`
}

// ServiceAccountTokenProjection writes a token for the pod's service account
// into a file, for the pod to present to the API server or another service.
type ServiceAccountTokenProjection struct {
	// Audience the token is issued for; a receiver should refuse a token not
	// meant for it. Default: the API server's own identifier.
	Audience string `json:"audience,omitempty" protobuf:"bytes,1,opt,name=audience"`
	// Requested lifetime of the token in seconds; default 3600, at least 600.
	// The kubelet replaces the token once 80% of its lifetime has passed or it is 24h old.
	ExpirationSeconds *int64 `json:"expirationSeconds,omitempty" protobuf:"varint,2,opt,name=expirationSeconds"`
	// File path of the token, relative to the volume root.
	Path string `json:"path" protobuf:"bytes,3,opt,name=path"`
	// UID that owns the file, overriding the volume's defaultUser.
	// Alpha (AtomicWriteVolumeUserFields gate).
	User *int64 `json:"user,omitempty" protobuf:"varint,4,opt,name=user"`
}

// ClusterTrustBundleProjection picks ClusterTrustBundle objects, either one by
// name or all of a signer filtered by labels, and writes their certificates to
// a file.
type ClusterTrustBundleProjection struct {
	// Name of the one bundle to use; excludes signerName and labelSelector.
	Name *string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	// Use every bundle of this signer (merged and deduplicated); excludes name.
	SignerName *string `json:"signerName,omitempty" protobuf:"bytes,2,opt,name=signerName"`
	// Narrows the signer's bundles by label; only used with signerName. Unset
	// selects none, an empty selector selects all.
	LabelSelector *LabelSelector `json:"labelSelector,omitempty" protobuf:"bytes,3,opt,name=labelSelector" structType:"atomic"`
	// When true the pod starts even if no bundle matches or the named one is missing.
	Optional *bool `json:"optional,omitempty" protobuf:"varint,5,opt,name=optional"`
	// File path of the bundle, relative to the volume root.
	Path string `json:"path" protobuf:"bytes,4,opt,name=path"`
	// UID that owns the file, overriding the volume's defaultUser.
	// Alpha (AtomicWriteVolumeUserFields gate).
	User *int64 `json:"user,omitempty" protobuf:"varint,6,opt,name=user"`
}

// PodCertificateProjection asks for a key pair and an X.509 certificate for
// the pod. The key and chain go to one file (credentialBundlePath) or two
// (keyPath and certificateChainPath); the signer decides the certificate's
// contents.
type PodCertificateProjection struct {
	// Signer that the kubelet's certificate requests are addressed to; required.
	SignerName string `json:"signerName,omitempty" protobuf:"bytes,1,opt,name=signerName"`
	// Key algorithm the kubelet generates; required. One of RSA3072, RSA4096,
	// ECDSAP256, ECDSAP384, ECDSAP521 or ED25519.
	KeyType string `json:"keyType,omitempty" protobuf:"bytes,2,opt,name=keyType"`
	// Longest certificate lifetime the pod accepts, in seconds; default 86400
	// (24h), allowed 3600 to 7862400 (91 days). The signer may issue a shorter one.
	MaxExpirationSeconds *int32 `json:"maxExpirationSeconds,omitempty" protobuf:"varint,3,opt,name=maxExpirationSeconds"`
	// File for the PEM bundle: the PKCS#8 private key first, then the issued
	// chain. Preferred, since one read gives a matching key and certificate.
	CredentialBundlePath string `json:"credentialBundlePath,omitempty" protobuf:"bytes,4,opt,name=credentialBundlePath"`
	// File for the private key alone; a reader must check that it matches the
	// certificate, as rotation can happen between two reads.
	KeyPath string `json:"keyPath,omitempty" protobuf:"bytes,5,opt,name=keyPath"`
	// File for the certificate chain alone; pairs with keyPath.
	CertificateChainPath string `json:"certificateChainPath,omitempty" protobuf:"bytes,6,opt,name=certificateChainPath"`
	// Extra information for the signer, copied unchecked into each request's
	// spec.unverifiedUserAnnotations; keys must have a domain prefix.
	UserAnnotations map[string]string `json:"userAnnotations,omitempty" protobuf:"bytes,7,rep,name=userAnnotations"`
	// UID that owns the files, overriding the volume's defaultUser.
	// Alpha (AtomicWriteVolumeUserFields gate).
	User *int64 `json:"user,omitempty" protobuf:"varint,8,opt,name=user"`
}
