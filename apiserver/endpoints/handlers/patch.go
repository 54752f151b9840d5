package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/endpoints/handlers/negotiation"
	"kubeloop/apiserver/endpoints/request"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/apiserver/serializer"
	"kubeloop/apiserver/strategicpatch"
)

// The patch media types.
const (
	mergePatchType     = "application/merge-patch+json"
	jsonPatchType      = "application/json-patch+json"
	strategicPatchType = "application/strategic-merge-patch+json"
	applyPatchType     = "application/apply-patch+yaml"
)

// Kubernetes' limits on the work one JSON patch may ask for, so that a
// patch within the 3 MiB body limit cannot make the server build a huge
// object (endpoints/handlers/patch.go, maxJSONPatchOperations, and the
// --json-patch-max-copy-bytes default in server/config.go, which is the
// json-patch library's AccumulatedCopySizeLimit).
const (
	// maxJSONPatchOperations: a patch with more operations is 413.
	maxJSONPatchOperations = 10000
	// jsonPatchMaxCopyBytes caps the bytes all "copy" operations of one
	// patch may add together: 10,000 copies of a 32 KiB value would
	// otherwise build a 320 MB document from a 600 kB request.
	jsonPatchMaxCopyBytes = 3 << 20
)

// PatchResource answers PATCH on an object, its status or its scale. The
// patch is applied to the stored object inside the registry's
// read-modify-write, so a concurrent writer makes it re-apply, never lose.
// Kubernetes: endpoints/handlers/patch.go (PatchResource, patcher.patchResource).
func PatchResource(r rest.Patcher, scope *RequestScope) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		ri, ctx := scope.requestInfo(req)
		opts := &rest.UpdateOptions{}
		var err error
		if opts.DryRun, err = dryRun(req, "PatchOptions", nil); err != nil {
			scope.err(w, req, err)
			return
		}
		directive, patchType, data, err := readPatch(req)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		ctx = scope.traceReceived(ctx, ri, req, nil)
		po, err := readPatchOptions(req, patchType)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		if patchType == applyPatchType {
			scope.applyResource(w, req, r, ri, ctx, po, opts, data)
			return
		}
		attrs := scope.attributes(admission.Update, ri)
		p := &patcher{scope: scope, ri: ri, newObj: r.New, directive: directive, patchType: patchType, patch: data,
			manager: po.manager, admit: rest.AdmissionToTransformFunc(scope.Admission, attrs)}
		out, err := r.Update(ctx, ri.Name, p, rest.AdmissionToValidateObjectUpdateFunc(scope.Admission, attrs), opts)
		scope.logWrite(ctx, "patch", http.StatusOK, opts.DryRun, nil, out, err)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		setWarnings(w, p.warnings)
		scope.writeObject(w, req, http.StatusOK, out)
	}
}

// patcher is the UpdatedObjectInfo of a PATCH: the patch applied to
// whatever is stored, decoded with the fieldValidation directive, checked
// against the URL, then mutating admission.
type patcher struct {
	scope     *RequestScope
	ri        *request.RequestInfo
	newObj    func() api.Object
	directive string
	patchType string
	patch     []byte
	manager   string
	admit     rest.TransformFunc
	// warnings are those of the last application (Warn).
	warnings []string
}

func (p *patcher) UpdatedObject(ctx context.Context, old api.Object) (api.Object, error) {
	k := p.scope.Kind
	patched, err := applyPatch(p.patchType, rest.WithTypeMeta(k, old), p.patch, strategicpatch.ForKind(k.Group, k.Kind))
	if err != nil {
		return nil, err
	}
	obj := p.newObj()
	if p.warnings, err = decodePatched(p.scope.jsonSerializer().Decoder, k.Group, k.Kind, p.ri.Name, patched, obj, p.directive); err != nil {
		return nil, err
	}
	if err := checkTypeMeta(k, obj); err != nil {
		return nil, err
	}
	if err := p.scope.checkURLMeta(p.ri, obj); err != nil {
		return nil, err
	}
	if obj, err = p.admit(ctx, obj, old); err != nil {
		return nil, err
	}
	p.scope.updateManagedFields(old, obj, p.manager)
	return obj, nil
}

// readPatch checks the directive and media type and reads the body.
func readPatch(r *http.Request) (directive, patchType string, data []byte, err error) {
	directive, err = fieldValidation(r, "PatchOptions")
	if err != nil {
		return "", "", nil, err
	}
	patchType = negotiation.MediaType(r.Header.Get("Content-Type"))
	switch patchType {
	case mergePatchType, jsonPatchType, strategicPatchType, applyPatchType:
	default:
		return "", "", nil, negotiation.NewUnsupportedMediaTypeError(r.Header.Get("Content-Type"),
			[]string{jsonPatchType, mergePatchType, strategicPatchType, applyPatchType})
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
// directive, copies over jsonPatchMaxCopyBytes) is 422, and a JSON patch of
// more than maxJSONPatchOperations operations is 413, as in Kubernetes. A
// merge or strategic merge patch needs no limit of its own: its result is at
// most the object plus the patch, and an object too big to store is the
// store's 413.
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
		if len(p) > maxJSONPatchOperations {
			return nil, api.NewRequestEntityTooLarge(fmt.Sprintf(
				"Request entity too large: The allowed maximum operations in a JSON patch is %d, got %d",
				maxJSONPatchOperations, len(p)))
		}
		opts := jsonpatch.NewApplyOptions()
		opts.AccumulatedCopySizeLimit = jsonPatchMaxCopyBytes
		out, err := p.ApplyWithOptions(orig, opts)
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
func decodePatched(dec serializer.Decoder, group, kind, name string, patched []byte, obj api.Object, directive string) ([]string, error) {
	problems, err := dec.Decode(patched, obj, directive != fieldValidationIgnore)
	if err != nil {
		return nil, api.NewInvalid(group, kind, name, []api.StatusCause{{Type: api.CauseTypeFieldValueInvalid, Message: err.Error()}})
	}
	if len(problems) > 0 && directive == fieldValidationStrict {
		return nil, api.NewInvalid(group, kind, name, []api.StatusCause{{Type: api.CauseTypeFieldValueInvalid, Message: strictError(problems)}})
	}
	return problems, nil
}
