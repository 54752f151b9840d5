package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/endpoints/handlers/negotiation"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
	"kubeloop/apiserver/registry/rest"
)

// DeleteResource answers DELETE on one object: the registry deletes it (at
// once, or by marking it when finalizers or a grace period hold it) after
// validating admission. The answer is the object as last stored.
// Kubernetes: endpoints/handlers/delete.go (DeleteResource).
func DeleteResource(r rest.GracefulDeleter, scope *RequestScope) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		ri, ctx := scope.requestInfo(req)
		opts, err := scope.deleteOptions(req)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		attrs := scope.attributes(admission.Delete, ri)
		out, err := r.Delete(ctx, ri.Name, rest.AdmissionToValidateObjectFunc(scope.Admission, attrs), opts)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		scope.writeObject(w, req, http.StatusOK, out)
	}
}

// DeleteCollection answers DELETE on a collection: every object the label
// and field selectors match is deleted as a single DELETE would, and the
// answer lists them. Kubernetes: endpoints/handlers/delete.go
// (DeleteCollection).
func DeleteCollection(r rest.CollectionDeleter, scope *RequestScope) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		ri, ctx := scope.requestInfo(req)
		opts, err := scope.deleteOptions(req)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		lopts, err := listOptions(req, scope.Resource, false)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		attrs := scope.attributes(admission.Delete, ri)
		list, err := r.DeleteCollection(ctx, rest.AdmissionToValidateObjectFunc(scope.Admission, attrs), opts, &lopts)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		responsewriters.WriteObjectNegotiated(w, req, scope.Serializers, http.StatusOK, list)
	}
}

// deleteOptions reads the optional DeleteOptions body and the query
// parameters that may stand in for it or add to it (dryRun,
// gracePeriodSeconds, propagationPolicy). Clients send the body with any
// Content-Type or none (kubectl sends none, client-go JSON or protobuf), so
// a media type no serializer reads is taken as JSON.
func (scope *RequestScope) deleteOptions(r *http.Request) (*api.DeleteOptions, error) {
	data, err := readBody(r)
	if err != nil {
		return nil, err
	}
	opts := &api.DeleteOptions{}
	if !isEmptyBody(data) {
		si, err := negotiation.NegotiateInputSerializer(r, scope.Serializers)
		if err != nil {
			si = scope.jsonSerializer()
		}
		if _, err := si.Decoder.Decode(data, opts, false); err != nil {
			var se *api.StatusError
			if errors.As(err, &se) {
				return nil, se
			}
			return nil, api.NewBadRequest(fmt.Sprintf("the body of the request could not be decoded as DeleteOptions: %v", err))
		}
	}
	if opts.DryRun, err = dryRun(r, "DeleteOptions", opts.DryRun); err != nil {
		return nil, err
	}
	q := query(r)
	if g := q.Get("gracePeriodSeconds"); g != "" {
		n, err := strconv.ParseInt(g, 10, 64)
		if err != nil {
			return nil, api.NewBadRequest(fmt.Sprintf("invalid gracePeriodSeconds %q", g))
		}
		opts.GracePeriodSeconds = &n
	}
	if p := q.Get("propagationPolicy"); p != "" {
		pp := api.DeletionPropagation(p)
		opts.PropagationPolicy = &pp
	}
	if opts.PropagationPolicy != nil {
		switch *opts.PropagationPolicy {
		case api.DeletePropagationOrphan, api.DeletePropagationBackground, api.DeletePropagationForeground:
		default:
			return nil, newInvalidQualified("meta.k8s.io", "DeleteOptions", "", []api.StatusCause{{
				Type: api.CauseTypeFieldValueNotSupported, Field: "propagationPolicy",
				Message: fmt.Sprintf(`Unsupported value: %q: supported values: "Foreground", "Background", "Orphan", "nil"`, *opts.PropagationPolicy)}})
		}
	}
	return opts, nil
}

// isEmptyBody: only whitespace, which is no options at all.
func isEmptyBody(data []byte) bool {
	for _, b := range data {
		if b != ' ' && b != '\t' && b != '\n' && b != '\r' {
			return false
		}
	}
	return true
}
