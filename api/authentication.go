package api

// TokenRequest is the body of POST serviceaccounts/NAME/token: a request
// for a ServiceAccount token, answered with the token in status. It is
// never stored (authentication.k8s.io/v1).
type TokenRequest struct {
	// Kind "TokenRequest" and apiVersion "authentication.k8s.io/v1".
	TypeMeta `json:",inline"`
	// Name and namespace of the service account.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// What the token is for and how long it lives.
	Spec TokenRequestSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	// The issued token, filled in by the server.
	Status TokenRequestStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// TokenRequestSpec is what a token is for.
type TokenRequestSpec struct {
	// Who the token is meant for: a recipient accepts it only if it
	// recognises one of these. Empty means the apiserver's own audience.
	Audiences []string `json:"audiences" protobuf:"bytes,1,rep,name=audiences"`
	// Requested lifetime in seconds (default one hour, at least ten
	// minutes).
	ExpirationSeconds *int64 `json:"expirationSeconds" protobuf:"varint,4,opt,name=expirationSeconds"`
	// An object the token is bound to: the token stops working when that
	// object is deleted. Only a Pod is supported here.
	BoundObjectRef *BoundObjectReference `json:"boundObjectRef" protobuf:"bytes,3,opt,name=boundObjectRef"`
	// Claims the requester asks the apiserver to attest to, by well-known
	// key. kubeloop knows no key, so a request with any is refused rather
	// than answered with a token that silently lacks them.
	Attestations map[string]AttestationValue `json:"attestations,omitempty" protobuf:"bytes,5,rep,name=attestations"`
}

// AttestationValue is one attestation's values; on the wire it is the same
// list of strings as an ExtraValue.
type AttestationValue = ExtraValue

// TokenRequestStatus is the issued token.
type TokenRequestStatus struct {
	// The token itself: a signed JWT.
	Token string `json:"token" protobuf:"bytes,1,opt,name=token"`
	// When the token stops being valid.
	ExpirationTimestamp Time `json:"expirationTimestamp" protobuf:"bytes,2,opt,name=expirationTimestamp"`
}

// BoundObjectReference names the object a token is bound to.
type BoundObjectReference struct {
	// Kind of the referent: "Pod".
	Kind string `json:"kind,omitempty" protobuf:"bytes,1,opt,name=kind"`
	// API version of the referent: "v1".
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,2,opt,name=apiVersion"`
	// Name of the referent, in the service account's namespace.
	Name string `json:"name,omitempty" protobuf:"bytes,3,opt,name=name"`
	// UID of the referent; if set it must match the object's.
	UID string `json:"uid,omitempty" protobuf:"bytes,4,opt,name=uID"`
}

// SelfSubjectReview is the body of POST selfsubjectreviews: the server
// fills status with who the caller is, as authentication found it (what
// `kubectl auth whoami` prints). It is never stored
// (authentication.k8s.io/v1).
type SelfSubjectReview struct {
	// Kind "SelfSubjectReview" and apiVersion "authentication.k8s.io/v1".
	TypeMeta `json:",inline"`
	// Standard object metadata; ignored.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// The caller, filled in by the server.
	Status SelfSubjectReviewStatus `json:"status,omitempty" protobuf:"bytes,2,opt,name=status"`
}

// SelfSubjectReviewStatus holds the caller's user information.
type SelfSubjectReviewStatus struct {
	// The user's attributes after impersonation.
	UserInfo UserInfo `json:"userInfo,omitempty" protobuf:"bytes,1,opt,name=userInfo"`
}

// UserInfo is a user as authentication sees it.
type UserInfo struct {
	// The name that uniquely identifies the user among all active users.
	Username string `json:"username,omitempty" protobuf:"bytes,1,opt,name=username"`
	// A unique value that identifies the user across time.
	UID string `json:"uid,omitempty" protobuf:"bytes,2,opt,name=uid"`
	// The groups the user is in.
	Groups []string `json:"groups,omitempty" protobuf:"bytes,3,rep,name=groups"`
	// Further information the authenticator provided.
	Extra map[string]ExtraValue `json:"extra,omitempty" protobuf:"bytes,4,rep,name=extra"`
}
