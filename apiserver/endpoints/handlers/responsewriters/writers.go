package responsewriters

import (
	"encoding/json"
	"fmt"
	"net/http"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/handlers/negotiation"
	"kubeloop/apiserver/serializer"
)

// WriteObjectNegotiated encodes obj in the media type the request's Accept
// header asks for and writes it with code. Kubernetes:
// responsewriters/writers.go (WriteObjectNegotiated).
func WriteObjectNegotiated(w http.ResponseWriter, r *http.Request, serializers []serializer.SerializerInfo, code int, obj any) {
	_, si := negotiation.NegotiateOutputMediaType(r, serializers)
	WriteObject(w, si, code, obj)
}

// WriteObject writes obj with an already negotiated serializer. Encoding
// errors cannot be reported to the client once the header is out, so an
// object that does not encode is turned into a 500 Status first.
func WriteObject(w http.ResponseWriter, si serializer.SerializerInfo, code int, obj any) {
	if si.Encoder == nil {
		WriteRawJSON(w, code, obj)
		return
	}
	body, err := si.Encoder.Encode(obj)
	if err != nil {
		st := api.NewInternalError(fmt.Errorf("encode response: %w", err)).Status()
		body, _ = si.Encoder.Encode(&st)
		code = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", si.MediaType)
	w.WriteHeader(code)
	_, _ = w.Write(body)
	if si.EncodesAsText {
		_, _ = w.Write([]byte("\n"))
	}
}

// ErrorNegotiated writes err as a Status with its HTTP code, in the media
// type the client asked for. Kubernetes: responsewriters/writers.go
// (ErrorNegotiated).
func ErrorNegotiated(w http.ResponseWriter, r *http.Request, serializers []serializer.SerializerInfo, err error) {
	st := ErrorToAPIStatus(err)
	WriteObjectNegotiated(w, r, serializers, int(st.Code), st)
}

// WriteStatus writes err as a JSON Status: for the filters and the
// compatibility endpoints, which answer in JSON only.
func WriteStatus(w http.ResponseWriter, err error) {
	st := ErrorToAPIStatus(err)
	WriteRawJSON(w, int(st.Code), st)
}

// WriteRawJSON writes v as JSON, whatever the client asked for (discovery,
// /version). Kubernetes: responsewriters/writers.go (WriteRawJSON).
func WriteRawJSON(w http.ResponseWriter, code int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		body, _ = json.Marshal(api.NewInternalError(fmt.Errorf("encode response: %w", err)).Status())
		code = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", serializer.ContentTypeJSON)
	w.WriteHeader(code)
	_, _ = w.Write(body)
	_, _ = w.Write([]byte("\n"))
}
