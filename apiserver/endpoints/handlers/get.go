package handlers

import (
	"net/http"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/handlers/negotiation"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
	"kubeloop/apiserver/registry/rest"
)

// GetResource answers GET on one object (and on the status or scale of
// one). Kubernetes: endpoints/handlers/get.go (GetResource).
func GetResource(r rest.Getter, scope *RequestScope) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		ri, ctx := scope.requestInfo(req)
		table, err := scope.tableOptions(req)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		obj, err := r.Get(ctx, ri.Name, &rest.GetOptions{ResourceVersion: query(req).Get("resourceVersion")})
		if err != nil {
			scope.err(w, req, err)
			return
		}
		if table != nil {
			scope.writeTable(w, req, []api.Object{obj}, api.ListMeta{ResourceVersion: obj.GetObjectMeta().ResourceVersion}, *table)
			return
		}
		scope.writeObject(w, req, http.StatusOK, obj)
	}
}

// ListResource answers GET on a collection. Kubernetes:
// endpoints/handlers/get.go (ListResource).
func ListResource(r rest.Lister, scope *RequestScope) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		_, ctx := scope.requestInfo(req)
		opts, err := listOptions(req, scope.Resource, false)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		table, err := scope.tableOptions(req)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		list, err := r.List(ctx, &opts)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		if table != nil {
			scope.writeTable(w, req, list.GetItems(), *list.GetListMeta(), *table)
			return
		}
		scope.writeList(w, req, list)
	}
}

// writeList answers a list; its items already carry their kind.
func (scope *RequestScope) writeList(w http.ResponseWriter, req *http.Request, list api.ListObject) {
	responsewriters.WriteObjectNegotiated(w, req, scope.Serializers, http.StatusOK, list)
}

// tableOptions says whether the client asked for a Table (Accept
// `application/json;as=Table;v=v1;g=meta.k8s.io`) that this endpoint can
// give, and what its rows carry (includeObject; a bad value is 400).
func (scope *RequestScope) tableOptions(req *http.Request) (*rest.TableOptions, error) {
	mto, _ := negotiation.NegotiateOutputMediaType(req, scope.Serializers)
	if mto.Convert != "Table" || scope.TableConvertor == nil {
		return nil, nil
	}
	inc := query(req).Get("includeObject")
	switch inc {
	case "":
		inc = "Metadata"
	case "None", "Metadata", "Object":
	default:
		return nil, api.NewBadRequest(`includeObject must be one of "None", "Metadata" or "Object"`)
	}
	return &rest.TableOptions{Version: mto.ConvertVersion, IncludeObject: inc}, nil
}

// writeTable answers objs as one Table.
func (scope *RequestScope) writeTable(w http.ResponseWriter, req *http.Request, objs []api.Object, lm api.ListMeta, opts rest.TableOptions) {
	t, err := scope.TableConvertor.ConvertToTable(req.Context(), objs, lm, opts)
	if err != nil {
		scope.err(w, req, err)
		return
	}
	responsewriters.WriteObjectNegotiated(w, req, scope.Serializers, http.StatusOK, t)
}
