package negotiation

import (
	"fmt"
	"net/http"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/serializer"
)

// MediaType is the media type of a Content-Type or Accept clause, lower
// case, without parameters.
func MediaType(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// NegotiateInputSerializer picks the serializer of a request body by its
// Content-Type. No Content-Type at all means JSON: kubectl sends none on
// `PUT .../scale`. A media type no serializer decodes is 415.
// Kubernetes: endpoints/handlers/negotiation/negotiate.go
// (NegotiateInputSerializer).
func NegotiateInputSerializer(r *http.Request, serializers []serializer.SerializerInfo) (serializer.SerializerInfo, error) {
	ct := r.Header.Get("Content-Type")
	mt := MediaType(ct)
	if mt == "" || mt == "*/*" {
		mt = serializer.ContentTypeJSON
	}
	var accepted []string
	for _, si := range serializers {
		if si.Decoder == nil {
			continue
		}
		if si.MediaType == mt {
			return si, nil
		}
		accepted = append(accepted, si.MediaType)
	}
	return serializer.SerializerInfo{}, NewUnsupportedMediaTypeError(ct, accepted)
}

// NewUnsupportedMediaTypeError is 415 naming what the endpoint accepts, in
// Kubernetes' words.
func NewUnsupportedMediaTypeError(contentType string, accepted []string) *api.StatusError {
	se := api.NewUnsupportedMediaType(contentType)
	se.ErrStatus.Message = fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: %s",
		strings.Join(accepted, ", "))
	return se
}

// MediaTypeOptions is what an Accept clause asks for beyond the encoding.
type MediaTypeOptions struct {
	// Convert is the kind the answer is converted to: "" for the object
	// itself, or "Table" (kubectl get's server-side columns).
	Convert string
	// ConvertVersion is the meta.k8s.io version of the conversion: "v1"
	// or "v1beta1".
	ConvertVersion string
}

// NegotiateOutputMediaType reads the Accept header: the first clause whose
// media type the server can write decides, so a client listing plain JSON
// before a Table gets plain JSON. A clause asking for a conversion the
// server does not offer is skipped. When nothing matches, the answer is
// JSON: Kubernetes would answer 406, but every client we serve accepts
// JSON. Kubernetes: negotiation/negotiate.go (NegotiateOutputMediaType)
// and endpoints/handlers/rest.go (the Table restrictions of
// namedCreaterAdapter and friends).
func NegotiateOutputMediaType(r *http.Request, serializers []serializer.SerializerInfo) (MediaTypeOptions, serializer.SerializerInfo) {
	for rest := r.Header.Get("Accept"); rest != ""; {
		var clause string
		clause, rest, _ = strings.Cut(rest, ",")
		mt, params := parseClause(clause)
		si, ok := encoderFor(mt, serializers)
		if !ok {
			continue
		}
		switch as := params["as"]; {
		case as == "":
			return MediaTypeOptions{}, si
		case as == "Table" && params["g"] == "meta.k8s.io" && (params["v"] == "v1" || params["v"] == "v1beta1") &&
			si.MediaType == serializer.ContentTypeJSON:
			// Tables have no protobuf form (Kubernetes refuses them
			// too); kubectl asks for them as JSON.
			return MediaTypeOptions{Convert: "Table", ConvertVersion: params["v"]}, si
		}
	}
	si, _ := encoderFor(serializer.ContentTypeJSON, serializers)
	return MediaTypeOptions{}, si
}

// encoderFor finds the serializer that writes a media type; the wildcards
// mean the first one that writes anything.
func encoderFor(mt string, serializers []serializer.SerializerInfo) (serializer.SerializerInfo, bool) {
	for _, si := range serializers {
		if si.Encoder == nil {
			continue
		}
		if mt == si.MediaType || mt == "*/*" || mt == "application/*" {
			return si, true
		}
	}
	return serializer.SerializerInfo{}, false
}

// parseClause splits one Accept clause into its media type and parameters
// (nil when it has none, the usual case).
func parseClause(clause string) (string, map[string]string) {
	mt, rest, _ := strings.Cut(clause, ";")
	var params map[string]string
	for rest != "" {
		var p string
		p, rest, _ = strings.Cut(rest, ";")
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if params == nil {
			params = map[string]string{}
		}
		params[k] = v
	}
	return MediaType(mt), params
}
