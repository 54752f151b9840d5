package client

import (
	"fmt"
	"net/http"
	"strings"

	"kubeloop/api"
)

// errorFromResponse turns a non-2xx reply into an *api.StatusError. A body
// that is a Status, in JSON or protobuf as its Content-Type says, is used as
// is, so callers see the server's own reason and message; anything else (a
// proxy's HTML page, plain text) gets a reason guessed from the HTTP code,
// as client-go's newUnstructuredResponseError and apimachinery's
// NewGenericServerResponse do.
func errorFromResponse(verb string, code int, contentType string, body []byte) error {
	var s api.Status
	if err := decodeBody(contentType, body, &s); err == nil && s.Kind == "Status" {
		if s.Code == 0 {
			s.Code = int32(code)
		}
		if s.Status == "" {
			s.Status = api.StatusFailure
		}
		return &api.StatusError{ErrStatus: s}
	}
	return genericServerResponse(verb, code, strings.TrimSpace(string(body)))
}

// genericServerResponse is the error for a reply with no Status in it.
func genericServerResponse(verb string, code int, serverMessage string) *api.StatusError {
	reason := api.StatusReasonUnknown
	msg := fmt.Sprintf("the server responded with the status code %d but did not return more information", code)
	switch code {
	case http.StatusConflict:
		// Without a Status the only hint is the verb: a POST that conflicts
		// is a create of a name that is taken.
		reason = api.StatusReasonConflict
		if verb == http.MethodPost {
			reason = api.StatusReasonAlreadyExists
		}
		msg = "the server reported a conflict"
	case http.StatusNotFound:
		reason, msg = api.StatusReasonNotFound, "the server could not find the requested resource"
	case http.StatusBadRequest:
		reason, msg = api.StatusReasonBadRequest, "the server rejected our request for an unknown reason"
	case http.StatusUnauthorized:
		reason, msg = api.StatusReasonUnauthorized, "the server has asked for the client to provide credentials"
	case http.StatusForbidden:
		reason, msg = api.StatusReasonForbidden, serverMessage
	case http.StatusMethodNotAllowed:
		reason, msg = api.StatusReasonMethodNotAllowed, "the server does not allow this method on the requested resource"
	case http.StatusNotAcceptable:
		reason, msg = api.StatusReasonNotAcceptable, serverMessage
	case http.StatusUnsupportedMediaType:
		reason, msg = api.StatusReasonUnsupportedMediaType, serverMessage
	case http.StatusGone:
		reason, msg = api.StatusReasonGone, "the server has no record of the requested resource version"
	case http.StatusUnprocessableEntity:
		reason, msg = api.StatusReasonInvalid, "the server rejected our request due to an error in our request"
	case http.StatusTooManyRequests:
		reason, msg = api.StatusReasonTooManyRequests, "the server has received too many requests and has asked us to try again later"
	case http.StatusInternalServerError:
		reason = api.StatusReasonInternalError
		msg = fmt.Sprintf("an error on the server (%q) has prevented the request from succeeding", serverMessage)
	case http.StatusServiceUnavailable:
		reason, msg = api.StatusReasonServiceUnavailable, "the server is currently unable to handle the request"
	case http.StatusGatewayTimeout:
		reason, msg = api.StatusReasonTimeout, "the server was unable to return a response in the time allotted, but may still be processing the request"
	}
	var details *api.StatusDetails
	if serverMessage != "" {
		details = &api.StatusDetails{Causes: []api.StatusCause{{Type: api.CauseTypeUnexpectedServerResponse, Message: serverMessage}}}
	}
	return &api.StatusError{ErrStatus: api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure, Code: int32(code), Reason: reason, Message: msg, Details: details,
	}}
}
