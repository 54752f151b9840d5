package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/endpoints/request"
	"kubeloop/apiserver/fieldmanager"
	"kubeloop/apiserver/fieldmanager/typed"
	"kubeloop/apiserver/registry/rest"
)

// patchOptions are a PATCH's fieldManager and force parameters: param is
// the parameter as sent, manager the name the write is recorded under.
type patchOptions struct {
	param, manager string
	force          bool
}

// readPatchOptions reads and checks fieldManager and force. Kubernetes'
// rules (meta/v1/validation ValidatePatchOptions), all problems in one
// 422 on PatchOptions.meta.k8s.io: an apply must name its manager (a
// controller has to choose a name; kubectl sends "kubectl"), force is only
// for apply.
func readPatchOptions(req *http.Request, patchType string) (*patchOptions, error) {
	q := query(req)
	po := &patchOptions{param: q.Get("fieldManager")}
	forceSet := q.Has("force")
	if forceSet {
		v, err := strconv.ParseBool(q.Get("force"))
		if err != nil {
			return nil, api.NewBadRequest(fmt.Sprintf("invalid value for force: %q", q.Get("force")))
		}
		po.force = v
	}
	var causes []api.StatusCause
	switch {
	case patchType == applyPatchType && po.param == "":
		causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldValueRequired, Field: "fieldManager",
			Message: "Required value: is required for apply patch"})
	case patchType != applyPatchType && forceSet:
		causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldValueForbidden, Field: "force",
			Message: "Forbidden: may not be specified for non-apply patch"})
	}
	causes = append(causes, fieldmanager.ValidateManager(po.param)...)
	if len(causes) > 0 {
		return nil, newInvalidQualified("meta.k8s.io", "PatchOptions", "", causes)
	}
	po.manager = fieldmanager.ManagerOrUserAgent(po.param, req.UserAgent())
	return po, nil
}

// applyResource answers a server-side apply (PATCH with
// application/apply-patch+yaml): the configuration is merged into the
// stored object by the field manager inside the registry's
// read-modify-write, then admitted and validated like any update; on a
// missing object (not on a subresource) it is applied to an empty one and
// created. Kubernetes: endpoints/handlers/patch.go (applyPatcher,
// patcher.patchResource with forceAllowCreate).
func (scope *RequestScope) applyResource(w http.ResponseWriter, req *http.Request, r rest.Patcher, ri *request.RequestInfo,
	ctx context.Context, po *patchOptions, opts *rest.UpdateOptions, data []byte) {
	if scope.FieldManager == nil {
		se := api.NewUnsupportedMediaType(applyPatchType)
		se.ErrStatus.Message = fmt.Sprintf("server-side apply is not supported on %s/%s", scope.Resource.Resource, scope.Subresource)
		scope.err(w, req, se)
		return
	}
	config, err := decodeApplyConfig(scope.Kind, data)
	if err != nil {
		scope.err(w, req, err)
		return
	}
	attrs := scope.attributes(admission.Update, ri)
	p := &applyPatcher{scope: scope, ri: ri, newObj: r.New, config: config, manager: po.param, force: po.force,
		admit: rest.AdmissionToTransformFunc(scope.Admission, attrs)}
	var out api.Object
	code := http.StatusOK
	// Two tries: an object created by someone else between our update's
	// 404 and our create is applied to.
	for range 2 {
		p.sawLive = false
		out, err = r.Update(ctx, ri.Name, p, rest.AdmissionToValidateObjectUpdateFunc(scope.Admission, attrs), opts)
		creater, canCreate := r.(rest.Creater)
		if !api.IsNotFound(err) || p.sawLive || !canCreate || scope.Subresource != "" {
			break
		}
		code = http.StatusCreated
		if out, err = p.create(ctx, creater, opts.DryRun); !api.IsAlreadyExists(err) {
			break
		}
		code = http.StatusOK
	}
	scope.logWrite(ctx, "apply", code, opts.DryRun, nil, out, err)
	if err != nil {
		scope.err(w, req, err)
		return
	}
	scope.writeObject(w, req, code, out)
}

// decodeApplyConfig reads an apply body, YAML or JSON (JSON is YAML), as
// a JSON object, and checks what Kubernetes checks before merging: the
// configuration is of the endpoint's kind and version and does not set
// managedFields. All of these are 400.
func decodeApplyConfig(k api.KindInfo, data []byte) (map[string]any, error) {
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, api.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
	}
	v, err := typed.DecodeValue(j)
	if err != nil {
		return nil, api.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
	}
	config, ok := v.(map[string]any)
	if v != nil && !ok {
		return nil, api.NewBadRequest(fmt.Sprintf("error decoding patch: the apply configuration must be an object, not %s", j))
	}
	if config == nil {
		config = map[string]any{}
	}
	if version, _ := config["apiVersion"].(string); version != k.GroupVersion() {
		return nil, api.NewBadRequest(fmt.Sprintf("Incorrect version specified in apply patch. Specified patch version: %s, expected: %s",
			version, k.GroupVersion()))
	}
	if kind, _ := config["kind"].(string); kind != k.Kind {
		return nil, api.NewBadRequest(fmt.Sprintf("the kind of the apply configuration (%s) does not match the kind of the URL (%s)", kind, k.Kind))
	}
	if md, ok := config["metadata"].(map[string]any); ok && md["managedFields"] != nil {
		return nil, api.NewBadRequest("metadata.managedFields must be nil")
	}
	return config, nil
}

// applyPatcher is the UpdatedObjectInfo of an apply: the configuration
// merged into whatever is stored, then mutating admission.
type applyPatcher struct {
	scope   *RequestScope
	ri      *request.RequestInfo
	newObj  func() api.Object
	config  map[string]any
	manager string
	force   bool
	admit   rest.TransformFunc
	// sawLive is set once the registry hands over a stored object: a 404
	// before that means there is nothing to apply to yet.
	sawLive bool
}

func (p *applyPatcher) UpdatedObject(ctx context.Context, old api.Object) (api.Object, error) {
	p.sawLive = true
	obj, err := p.apply(old)
	if err != nil {
		return nil, err
	}
	return p.admit(ctx, obj, old)
}

// create applies the configuration to an empty object and creates it,
// with create admission.
func (p *applyPatcher) create(ctx context.Context, c rest.Creater, dryRun []string) (api.Object, error) {
	obj, err := p.apply(p.newObj())
	if err != nil {
		return nil, err
	}
	attrs := p.scope.attributes(admission.Create, p.ri)
	attrs.Object = obj
	if err := p.scope.Admission.Admit(ctx, &attrs); err != nil {
		return nil, err
	}
	return c.Create(ctx, attrs.Object, rest.AdmissionToValidateObjectFunc(p.scope.Admission, attrs), &rest.CreateOptions{DryRun: dryRun})
}

// apply merges the configuration into live and decodes the result, with
// the managedFields the field manager made for it.
func (p *applyPatcher) apply(live api.Object) (api.Object, error) {
	k := p.scope.Kind
	merged, managed, err := p.scope.FieldManager.Apply(rest.WithTypeMeta(k, live), p.config, p.manager, p.force)
	if err != nil {
		return nil, applyFailed(k, p.ri.Name, err)
	}
	b, err := json.Marshal(merged)
	if err != nil {
		return nil, fmt.Errorf("encode the applied object: %w", err)
	}
	obj := p.newObj()
	if _, err := decodePatched(p.scope.jsonSerializer().Decoder, k.Group, k.Kind, p.ri.Name, b, obj, fieldValidationIgnore); err != nil {
		return nil, err
	}
	obj.GetObjectMeta().ManagedFields = managed
	if err := checkTypeMeta(k, obj); err != nil {
		return nil, err
	}
	if err := p.scope.checkURLMeta(p.ri, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// applyFailed answers what the field manager refused: a conflict is 409
// with one cause per field; a configuration that does not fit the schema
// (an undeclared field, a wrong type, a list element without its key, a
// duplicate key) is 422 naming the path. Kubernetes answers the latter
// with a 500 "failed to create typed patch object"; a client's mistake is
// not the server's error.
func applyFailed(k api.KindInfo, name string, err error) error {
	var conflict *fieldmanager.ConflictError
	if errors.As(err, &conflict) {
		return conflict.Status()
	}
	var fe *typed.FieldError
	if errors.As(err, &fe) {
		return api.NewInvalid(k.Group, k.Kind, name, []api.StatusCause{{Type: api.CauseTypeFieldValueInvalid,
			Field: strings.TrimPrefix(fe.Path, "."), Message: fe.Message}})
	}
	return err
}
