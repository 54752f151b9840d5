package authorization

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/authorization/authorizer"
	"kubeloop/apiserver/endpoints/handlers/negotiation"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
	"kubeloop/apiserver/serializer"
)

// Prefix is where the reviews are served.
const Prefix = "/apis/" + api.AuthorizationGroupName + "/v1/"

// maxReviewBytes bounds a review's body; a review is a few hundred bytes.
const maxReviewBytes = 1 << 20

// Handler serves POST Prefix<resource>: decode the review (JSON, YAML or
// protobuf, as every create), answer it, and send it back with 201, as
// Kubernetes' create handler does.
type Handler struct {
	Authorizer  authorizer.Authorizer
	Resolver    RuleResolver
	Serializers []serializer.SerializerInfo
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	resource := strings.TrimPrefix(r.URL.Path, Prefix)
	kind, ok := kinds[resource]
	if !ok {
		responsewriters.ErrorNegotiated(w, r, h.Serializers, &api.StatusError{ErrStatus: api.Status{
			TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: api.StatusFailure,
			Message: "the server could not find the requested resource", Reason: api.StatusReasonNotFound,
			Details: &api.StatusDetails{}, Code: http.StatusNotFound,
		}})
		return
	}
	if r.Method != http.MethodPost {
		responsewriters.ErrorNegotiated(w, r, h.Serializers,
			api.NewMethodNotSupported(api.GroupResource{Group: api.AuthorizationGroupName, Resource: resource}, r.Method))
		return
	}
	si, err := negotiation.NegotiateInputSerializer(r, h.Serializers)
	if err != nil {
		responsewriters.ErrorNegotiated(w, r, h.Serializers, err)
		return
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, maxReviewBytes+1))
	if err != nil || len(data) > maxReviewBytes {
		responsewriters.ErrorNegotiated(w, r, h.Serializers, api.NewBadRequest(fmt.Sprintf("reading the request body: %v", err)))
		return
	}
	var obj api.Object
	switch kind {
	case "SelfSubjectAccessReview":
		obj = &api.SelfSubjectAccessReview{}
	case "SubjectAccessReview":
		obj = &api.SubjectAccessReview{}
	default:
		obj = &api.SelfSubjectRulesReview{}
	}
	if _, err := si.Decoder.Decode(data, obj, false); err != nil {
		responsewriters.ErrorNegotiated(w, r, h.Serializers, api.NewBadRequest(err.Error()))
		return
	}
	ctx := r.Context()
	switch review := obj.(type) {
	case *api.SelfSubjectAccessReview:
		err = reviewSelf(ctx, h.Authorizer, review)
	case *api.SubjectAccessReview:
		err = reviewSubject(ctx, h.Authorizer, review)
	case *api.SelfSubjectRulesReview:
		err = reviewRules(ctx, h.Resolver, review)
	}
	if err != nil {
		responsewriters.ErrorNegotiated(w, r, h.Serializers, err)
		return
	}
	tm := obj.GetTypeMeta()
	tm.Kind, tm.APIVersion = kind, api.AuthorizationGroupName+"/v1"
	responsewriters.WriteObjectNegotiated(w, r, h.Serializers, http.StatusCreated, obj)
}
