package handlers

import (
	"context"
	"net/http"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/registry/rest"
)

// UpdateResource answers PUT on an object, its status or its scale: the
// body replaces whatever is stored, through the registry's
// read-modify-write, with mutating admission as the last step of making the
// new object and validating admission called by the registry before it
// writes. Kubernetes: endpoints/handlers/update.go (UpdateResource).
func UpdateResource(r rest.Updater, scope *RequestScope) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		ri, ctx := scope.requestInfo(req)
		opts := &rest.UpdateOptions{}
		var err error
		if opts.DryRun, err = dryRun(req, "UpdateOptions", nil); err != nil {
			scope.err(w, req, err)
			return
		}
		_, manager, err := fieldManagerOf(req, "UpdateOptions")
		if err != nil {
			scope.err(w, req, err)
			return
		}
		obj := r.New()
		warnings, err := scope.decodeBody(req, ri, obj, "UpdateOptions")
		if err != nil {
			scope.err(w, req, err)
			return
		}
		ctx = scope.traceReceived(ctx, ri, req, obj)
		attrs := scope.attributes(admission.Update, ri)
		objInfo := rest.DefaultUpdatedObjectInfo(obj, rest.AdmissionToTransformFunc(scope.Admission, attrs),
			func(_ context.Context, obj, old api.Object) (api.Object, error) {
				scope.updateManagedFields(old, obj, manager)
				return obj, nil
			})
		out, err := r.Update(ctx, ri.Name, objInfo, rest.AdmissionToValidateObjectUpdateFunc(scope.Admission, attrs), opts)
		scope.logWrite(ctx, "update", http.StatusOK, opts.DryRun, obj, out, err)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		setWarnings(w, warnings)
		scope.writeObject(w, req, http.StatusOK, out)
	}
}
