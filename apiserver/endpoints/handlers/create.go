package handlers

import (
	"net/http"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/registry/rest"
)

// CreateResource answers POST on a collection (or on pods/NAME/binding):
// decode the body, run mutating admission, and hand the object to the
// registry with validating admission for it to call last. Kubernetes:
// endpoints/handlers/create.go (createHandler).
func CreateResource(r rest.Creater, scope *RequestScope) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		ri, ctx := scope.requestInfo(req)
		opts := &rest.CreateOptions{}
		var err error
		if opts.DryRun, err = dryRun(req, "CreateOptions", nil); err != nil {
			scope.err(w, req, err)
			return
		}
		_, manager, err := fieldManagerOf(req, "CreateOptions")
		if err != nil {
			scope.err(w, req, err)
			return
		}
		obj := r.New()
		warnings, err := scope.decodeBody(req, ri, obj, "CreateOptions")
		if err != nil {
			scope.err(w, req, err)
			return
		}
		ctx = scope.traceReceived(ctx, ri, req, obj)
		attrs := scope.attributes(admission.Create, ri)
		attrs.Object = obj
		if m := obj.GetObjectMeta(); m.Name != "" {
			attrs.Name = m.Name
		}
		if err := scope.Admission.Admit(ctx, &attrs); err != nil {
			scope.logWrite(ctx, "create", http.StatusCreated, opts.DryRun, obj, nil, err)
			scope.err(w, req, err)
			return
		}
		scope.updateManagedFields(nil, obj, manager)
		out, err := r.Create(ctx, obj, rest.AdmissionToValidateObjectFunc(scope.Admission, attrs), opts)
		scope.logWrite(ctx, "create", http.StatusCreated, opts.DryRun, obj, out, err)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		setWarnings(w, warnings)
		code := http.StatusCreated
		if st, ok := out.(*api.Status); ok && st.Code != 0 {
			code = int(st.Code)
		}
		scope.writeObject(w, req, code, out)
	}
}
