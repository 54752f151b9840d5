package authentication

import (
	"io"
	"net/http"
	"slices"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
	"kubeloop/apiserver/serializer"
)

// Path is where SelfSubjectReviews are created.
const Path = "/apis/authentication.k8s.io/v1/selfsubjectreviews"

// SelfSubjectReviewHandler answers POST Path with the caller's user.
type SelfSubjectReviewHandler struct {
	Serializers []serializer.SerializerInfo
}

func (h *SelfSubjectReviewHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		responsewriters.ErrorNegotiated(w, r, h.Serializers,
			api.NewMethodNotSupported(api.GroupResource{Group: "authentication.k8s.io", Resource: "selfsubjectreviews"}, r.Method))
		return
	}
	// The review has no spec: its body says nothing the answer needs.
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20))
	u, ok := user.From(r.Context())
	if !ok {
		responsewriters.ErrorNegotiated(w, r, h.Serializers, api.NewBadRequest("no user found in the request"))
		return
	}
	review := &api.SelfSubjectReview{
		TypeMeta: api.TypeMeta{Kind: "SelfSubjectReview", APIVersion: "authentication.k8s.io/v1"},
		Status: api.SelfSubjectReviewStatus{UserInfo: api.UserInfo{
			Username: u.Name, UID: u.UID, Groups: slices.Clone(u.Groups), Extra: extra(u.Extra),
		}},
	}
	review.CreationTimestamp = api.Now()
	responsewriters.WriteObjectNegotiated(w, r, h.Serializers, http.StatusCreated, review)
}

func extra(in map[string][]string) map[string]api.ExtraValue {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]api.ExtraValue, len(in))
	for k, v := range in {
		out[k] = api.ExtraValue{Items: slices.Clone(v)}
	}
	return out
}
