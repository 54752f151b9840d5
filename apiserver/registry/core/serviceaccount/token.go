package serviceaccount

import (
	"context"
	"fmt"
	"time"

	"kubeloop/api"
	saauth "kubeloop/apiserver/authentication/serviceaccount"
	"kubeloop/apiserver/endpoints/request"
	"kubeloop/apiserver/registry/rest"
)

// Token lifetimes, as Kubernetes': an hour unless asked, at least ten
// minutes, at most 2^32 seconds.
const (
	defaultExpirationSeconds = 60 * 60
	minExpirationSeconds     = 10 * 60
	maxExpirationSeconds     = 1 << 32
)

// PodGetter reads the pod a token is to be bound to.
type PodGetter interface {
	GetPod(ctx context.Context, namespace, name string) (*api.Pod, error)
}

// TokenREST serves POST serviceaccounts/NAME/token: a TokenRequest in,
// the same TokenRequest with a signed token in its status out (what
// `kubectl create token` sends). Nothing is stored. Kubernetes:
// pkg/registry/core/serviceaccount/storage/token.go (TokenREST.Create).
type TokenREST struct {
	ServiceAccounts rest.Getter
	Pods            PodGetter
	Generator       *saauth.Generator
	// Audiences is what a token is for when the request names none
	// (kube-apiserver's --api-audiences, default the issuer).
	Audiences []string
	Now       func() time.Time
}

var (
	_ rest.Creater                  = (*TokenREST)(nil)
	_ rest.GroupVersionKindProvider = (*TokenREST)(nil)
)

// New is an empty TokenRequest.
func (r *TokenREST) New() api.Object { return &api.TokenRequest{} }

// GroupVersionKind is authentication.k8s.io/v1 TokenRequest.
func (r *TokenREST) GroupVersionKind() api.KindInfo {
	return api.KindInfo{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest"}
}

// Create issues a token for the service account named on the URL, which
// must exist; a bound pod must exist, run as that account and, if the
// reference has a UID, be that very pod.
func (r *TokenREST) Create(ctx context.Context, obj api.Object, createValidation rest.ValidateObjectFunc, opts *rest.CreateOptions) (api.Object, error) {
	req, ok := obj.(*api.TokenRequest)
	if !ok {
		return nil, api.NewBadRequest(fmt.Sprintf("not a TokenRequest: %T", obj))
	}
	saObj, err := r.ServiceAccounts.Get(ctx, req.Name, &rest.GetOptions{})
	if err != nil {
		return nil, err
	}
	sa := saObj.(*api.ServiceAccount)
	out := req.DeepCopyObject().(*api.TokenRequest)
	out.Namespace = request.NamespaceValue(ctx)
	if out.Spec.ExpirationSeconds == nil {
		secs := int64(defaultExpirationSeconds)
		out.Spec.ExpirationSeconds = &secs
	}
	if err := validateTokenRequest(out); err != nil {
		return nil, err
	}
	if len(out.Spec.Audiences) == 0 {
		out.Spec.Audiences = append([]string(nil), r.Audiences...)
	}
	pod, err := r.boundPod(ctx, sa, out.Spec.BoundObjectRef)
	if err != nil {
		return nil, err
	}
	if createValidation != nil {
		if err := createValidation(ctx, out.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	if rest.IsDryRun(opts.DryRun) {
		return out, nil
	}
	token, exp, err := r.Generator.Token(sa, pod, out.Spec.Audiences, r.Now(), time.Duration(*out.Spec.ExpirationSeconds)*time.Second)
	if err != nil {
		return nil, api.NewInternalError(err)
	}
	out.Status = api.TokenRequestStatus{Token: token, ExpirationTimestamp: api.NewTime(exp)}
	return out, nil
}

func validateTokenRequest(r *api.TokenRequest) error {
	if len(r.Spec.Attestations) > 0 {
		return api.NewInvalid("authentication.k8s.io", "TokenRequest", "", []api.StatusCause{{
			Type: api.CauseTypeFieldValueForbidden, Field: "spec.attestations",
			Message: "Forbidden: this server attests to no claims",
		}})
	}
	secs := *r.Spec.ExpirationSeconds
	var detail string
	switch {
	case secs < minExpirationSeconds:
		detail = "may not specify a duration less than 10 minutes"
	case secs > maxExpirationSeconds:
		detail = "may not specify a duration larger than 2^32 seconds"
	default:
		return nil
	}
	return api.NewInvalid("authentication.k8s.io", "TokenRequest", "", []api.StatusCause{{
		Type: api.CauseTypeFieldValueInvalid, Field: "spec.expirationSeconds",
		Message: fmt.Sprintf("Invalid value: %d: %s", secs, detail),
	}})
}

// boundPod checks the object a token is bound to; only pods are supported.
func (r *TokenREST) boundPod(ctx context.Context, sa *api.ServiceAccount, ref *api.BoundObjectReference) (*api.Pod, error) {
	if ref == nil {
		return nil, nil
	}
	if ref.Kind != "Pod" || (ref.APIVersion != "" && ref.APIVersion != "v1") {
		return nil, api.NewBadRequest(fmt.Sprintf("cannot bind token to object of type %s, %s", ref.APIVersion, ref.Kind))
	}
	pod, err := r.Pods.GetPod(ctx, sa.Namespace, ref.Name)
	if err != nil {
		return nil, err
	}
	if ref.UID != "" && ref.UID != pod.UID {
		return nil, api.NewConflict(api.GroupResource{Resource: "Pod"}, ref.Name,
			fmt.Errorf("the UID in the bound object reference (%s) does not match the UID in record. The object might have been deleted and then recreated", ref.UID))
	}
	if pod.Spec.ServiceAccountName != sa.Name {
		return nil, api.NewBadRequest(fmt.Sprintf("cannot bind token for serviceaccount %q to pod running with different serviceaccount name.", sa.Name))
	}
	return pod, nil
}
