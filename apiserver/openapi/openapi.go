package openapi

import (
	"bytes"
	"crypto/sha512"
	"encoding/hex"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"kubeloop/api"
)

// The media types /openapi/v2 answers in. client-go asks for the
// deprecated name with "@" (discovery_client.go, openAPIV2mimePb), which
// is not a valid Content-Type; the answer says the dotted name, as
// kube-openapi's handler does.
const (
	v2ProtobufRequested = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"
	v2Protobuf          = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"
)

// Handler serves the OpenAPI documents: /openapi/v3 (ServeHTTP) and
// /openapi/v2 (V2). What clients read in them:
//   - kubectl create/apply look up the PATCH operation of a kind in
//     /openapi/v3; since it declares the fieldValidation parameter, they
//     send ?fieldValidation=Strict and let the server report unknown
//     fields (cli-runtime's query_param_verifier_v3.go, supportsQueryParamV3);
//   - kubectl explain finds the kind's path, its
//     x-kubernetes-group-version-kind, and the schema carrying that GVK
//     (kubectl/pkg/explain/v2/templates/plaintext.tmpl); --output
//     plaintext-openapiv2 reads /openapi/v2 in protobuf instead;
//   - kubectl apply computes strategic merge patches from the v3 schemas'
//     x-kubernetes-patch-* extensions, because the PATCH operations list
//     the strategic merge patch media type.
type Handler struct {
	docs *documents
	// etags are the documents' content hashes, by the same keys as
	// docs.v3, plus "v2".
	etags map[string]string
	built time.Time

	// custom, if set, adds the served custom resources (custom.go); the
	// documents with them are rebuilt when their version changes.
	custom CustomResources
	log    *slog.Logger
	mu     sync.Mutex
	withCR *customDocuments
}

// New builds the documents of reg's kinds once; version is the server's
// gitVersion, shown as the documents' info.version.
func New(reg *api.Registry, version string) (*Handler, error) {
	d, err := buildDocuments(reg, version)
	if err != nil {
		return nil, err
	}
	h := &Handler{docs: d, etags: map[string]string{"v2": contentHash(d.v2JSON)}, built: time.Now()}
	for gv, doc := range d.v3 {
		h.etags[gv] = contentHash(doc)
	}
	return h, nil
}

// contentHash is the upper-case hex SHA-512 kube-openapi uses as a
// document's ETag and in the /openapi/v3 index's ?hash=.
func contentHash(b []byte) string {
	sum := sha512.Sum512(b)
	return strings.ToUpper(hex.EncodeToString(sum[:]))
}

// ServeHTTP answers /openapi/v3 and /openapi/v3/<gv>. A request that names
// the current hash may be cached for good; one naming an old hash is
// redirected to the current one (kube-openapi handler3,
// HandleGroupVersion).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	docs, etags, built := h.current()
	p := strings.Trim(strings.TrimPrefix(r.URL.Path, "/openapi/v3"), "/")
	if p == "" {
		h.serve(w, r, "", built, docs.v3Index)
		return
	}
	doc, ok := docs.v3[p]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if !acceptable(r, "application/json") {
		w.WriteHeader(http.StatusNotAcceptable)
		return
	}
	if hash := r.URL.Query().Get("hash"); hash != "" {
		if hash != etags[p] {
			http.Redirect(w, r, "/openapi/v3/"+p+"?hash="+etags[p], http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Cache-Control", "public, immutable")
		w.Header().Set("Expires", time.Now().AddDate(1, 0, 0).UTC().Format(http.TimeFormat))
	}
	h.serve(w, r, etags[p], built, doc)
}

// V2 answers /openapi/v2: the whole API in one Swagger 2.0 document, as
// JSON or, for client-go's discovery client, as protobuf; 406 when the
// client accepts neither (kube-openapi handler, RegisterOpenAPIVersionedService).
func (h *Handler) V2() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept")
		docs, etags, built := h.current()
		switch {
		case acceptable(r, "application/json"):
			w.Header().Set("Content-Type", "application/json")
			h.serve(w, r, etags["v2"], built, docs.v2JSON)
		case acceptable(r, v2ProtobufRequested), acceptable(r, v2Protobuf):
			w.Header().Set("Content-Type", v2Protobuf)
			h.serve(w, r, etags["v2"], built, docs.v2Protobuf)
		default:
			w.WriteHeader(http.StatusNotAcceptable)
		}
	})
}

// serve writes a document, answering If-None-Match with 304.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request, etag string, built time.Time, body []byte) {
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	if etag != "" {
		w.Header().Set("Etag", `"`+etag+`"`)
	}
	http.ServeContent(w, r, "", built, bytes.NewReader(body))
}

// acceptable reports whether the Accept header admits mediaType: it is
// listed, or matched by a wildcard, or Accept is absent. Unlike
// kube-openapi we take the first acceptable type in our order, not the
// client's q-values: no client offers both.
func acceptable(r *http.Request, mediaType string) bool {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return true
	}
	typ, _, _ := strings.Cut(mediaType, "/")
	for _, clause := range strings.Split(accept, ",") {
		clause = strings.TrimSpace(clause)
		// The "@" of the deprecated protobuf name is not a token, so the
		// clause is compared as written before it is parsed.
		if name, _, _ := strings.Cut(clause, ";"); strings.TrimSpace(name) == mediaType {
			return true
		}
		mt, _, err := mime.ParseMediaType(clause)
		if err != nil {
			continue
		}
		if mt == mediaType || mt == "*/*" || mt == typ+"/*" {
			return true
		}
	}
	return false
}
