package apiserver

import (
	"encoding/json"
	"fmt"
	"net/http"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"kubeloop/api"
	"kubeloop/apiserver/strategicpatch"
)

// The patch media types.
const (
	mergePatchType     = "application/merge-patch+json"
	jsonPatchType      = "application/json-patch+json"
	strategicPatchType = "application/strategic-merge-patch+json"
	applyPatchType     = "application/apply-patch+yaml"
)

// patch answers PATCH on an object, its status or (through serveScale) its
// scale. The patch is applied to the current object inside the
// read-modify-write, so a concurrent writer makes it re-apply, never lose.
// Kubernetes: endpoints/handlers/patch.go (PatchResource).
func (s *Server) patch(w http.ResponseWriter, r *http.Request, sc *scope) {
	if sc.ri.Name == "" {
		writeStatus(w, api.NewMethodNotSupported(sc.info.GroupResource(), "PATCH"))
		return
	}
	directive, patchType, data, err := readPatch(r)
	if err != nil {
		writeStatus(w, err)
		return
	}
	var warnings []string
	out, err := s.updateObject(r.Context(), sc, func(cur api.Object) (api.Object, error) {
		patched, err := applyPatch(patchType, withTypeMeta(sc.info, cur), data, strategicpatch.ForKind(sc.info.Group, sc.info.Kind))
		if err != nil {
			return nil, err
		}
		obj := sc.info.New()
		warnings, err = decodePatched(sc.info.Group, sc.info.Kind, sc.ri.Name, patched, obj, directive)
		if err != nil {
			return nil, err
		}
		if err := checkTypeMeta(sc.info, obj); err != nil {
			return nil, err
		}
		if err := checkURLMeta(sc, obj); err != nil {
			return nil, err
		}
		return obj, nil
	})
	s.logWrite(verbWithSub("patch", sc), sc.info, nil, out, err)
	if err != nil {
		writeStatus(w, err)
		return
	}
	setWarnings(w, warnings)
	writeJSON(w, http.StatusOK, withTypeMeta(sc.info, out))
}

// readPatch checks the directive and media type and reads the body.
// Server-side apply is not implemented: it is refused with 415, which
// kubectl understands ("Server-side apply not available") rather than
// guessed at.
func readPatch(r *http.Request) (directive, patchType string, data []byte, err error) {
	directive, err = fieldValidation(r, "PatchOptions")
	if err != nil {
		return "", "", nil, err
	}
	patchType = mediaType(r.Header.Get("Content-Type"))
	switch patchType {
	case mergePatchType, jsonPatchType, strategicPatchType:
	case applyPatchType:
		se := api.NewUnsupportedMediaType(r.Header.Get("Content-Type"))
		se.ErrStatus.Message = "server-side apply is not supported by kubeloop; use client-side apply (kubectl apply without --server-side)"
		return "", "", nil, se
	default:
		return "", "", nil, api.NewUnsupportedMediaType(r.Header.Get("Content-Type"))
	}
	data, err = readBody(r)
	if err != nil {
		return "", "", nil, err
	}
	return directive, patchType, data, nil
}

// applyPatch applies a merge, JSON or strategic merge patch (with the
// kind's schema) to the JSON of cur. A patch that is not valid JSON is 400;
// one that cannot be applied (a failed test, a missing path, a bad
// directive) is 422, as in Kubernetes.
func applyPatch(patchType string, cur api.Object, patch []byte, schema *strategicpatch.Schema) ([]byte, error) {
	orig, err := json.Marshal(cur)
	if err != nil {
		return nil, fmt.Errorf("encode current object: %w", err)
	}
	switch patchType {
	case jsonPatchType:
		p, err := jsonpatch.DecodePatch(patch)
		if err != nil {
			return nil, api.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
		}
		out, err := p.Apply(orig)
		if err != nil {
			return nil, patchFailed(err)
		}
		return out, nil
	case strategicPatchType:
		if !json.Valid(patch) {
			return nil, api.NewBadRequest("error decoding patch: invalid JSON")
		}
		out, err := strategicpatch.Apply(orig, patch, schema)
		if err != nil {
			return nil, patchFailed(err)
		}
		return out, nil
	default:
		if !json.Valid(patch) {
			return nil, api.NewBadRequest("error decoding patch: invalid JSON")
		}
		out, err := jsonpatch.MergePatch(orig, patch)
		if err != nil {
			return nil, patchFailed(err)
		}
		return out, nil
	}
}

func patchFailed(err error) *api.StatusError {
	se := api.NewInvalid("", "", "", nil)
	se.ErrStatus.Message = fmt.Sprintf("the server rejected our request due to an error in our request: %v", err)
	se.ErrStatus.Details = nil
	return se
}

// decodePatched decodes the patched JSON. With fieldValidation=Strict an
// unknown or duplicate field is 422 (the patch is what is invalid), with
// Warn the problems come back as warnings.
func decodePatched(group, kind, name string, patched []byte, obj api.Object, directive string) ([]string, error) {
	problems, err := decodeWithDirective(patched, obj, directive)
	if err != nil {
		return nil, api.NewInvalid(group, kind, name, []api.StatusCause{fieldCause(
			api.CauseTypeFieldValueInvalid, "", err.Error())})
	}
	if len(problems) > 0 && directive == fieldValidationStrict {
		return nil, api.NewInvalid(group, kind, name, []api.StatusCause{fieldCause(
			api.CauseTypeFieldValueInvalid, "", strictError(problems))})
	}
	return problems, nil
}
