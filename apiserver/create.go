package apiserver

import (
	"context"
	"net/http"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
)

// generateNameAttempts is how often a create with generateName tries a new
// random suffix after AlreadyExists, as Kubernetes' RetryGenerateName does.
const generateNameAttempts = 8

// create answers POST on a collection. Kubernetes: endpoints/handlers/create.go
// (createHandler) and registry/generic/registry/store.go (Store.Create).
func (s *Server) create(w http.ResponseWriter, r *http.Request, sc *scope) {
	obj, warnings, err := s.decodeWrite(r, sc, "CreateOptions")
	if err != nil {
		writeStatus(w, err)
		return
	}
	out, err := s.createObject(r.Context(), sc.info, obj)
	s.logWrite("create", sc.info, obj, out, err)
	if err != nil {
		writeStatus(w, err)
		return
	}
	setWarnings(w, warnings)
	writeJSON(w, http.StatusCreated, withTypeMeta(sc.info, out))
}

// decodeWrite reads and decodes the body of a POST or PUT and checks that
// its namespace and name agree with the URL.
func (s *Server) decodeWrite(r *http.Request, sc *scope, optionsKind string) (api.Object, []string, error) {
	directive, err := fieldValidation(r, optionsKind)
	if err != nil {
		return nil, nil, err
	}
	isProtobuf := mediaType(r.Header.Get("Content-Type")) == protobufType
	if !isProtobuf {
		if err := checkJSONContentType(r); err != nil {
			return nil, nil, err
		}
	}
	data, err := readBody(r)
	if err != nil {
		return nil, nil, err
	}
	if isProtobuf && sc.ri.Subresource == "" {
		if data, err = protobufToJSON(sc.info, r.Header.Get("Content-Type"), data); err != nil {
			return nil, nil, err
		}
	} else if isProtobuf {
		return nil, nil, api.NewUnsupportedMediaType(r.Header.Get("Content-Type"))
	}
	obj, warnings, err := decodeObject(sc.info, data, directive)
	if err != nil {
		return nil, nil, err
	}
	if err := checkURLMeta(sc, obj); err != nil {
		return nil, nil, err
	}
	return obj, warnings, nil
}

// checkURLMeta makes the body agree with the URL: a missing namespace is
// taken from the URL, a different one is 400, as is a different name.
func checkURLMeta(sc *scope, obj api.Object) error {
	m := obj.GetObjectMeta()
	if sc.info.Namespaced {
		if m.Namespace == "" {
			m.Namespace = sc.ri.Namespace
		} else if m.Namespace != sc.ri.Namespace {
			return api.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
		}
	} else {
		m.Namespace = ""
	}
	if sc.ri.Name != "" && m.Name != sc.ri.Name {
		if m.Name == "" {
			m.Name = sc.ri.Name
			return nil
		}
		return api.NewBadRequest("the name of the object (" + m.Name + ") does not match the name on the URL (" + sc.ri.Name + ")")
	}
	return nil
}

// createObject stores a new object: server-owned metadata, a generated name
// if asked for, mutating then validating admission, then the store.
func (s *Server) createObject(ctx context.Context, info *api.ResourceInfo, obj api.Object) (api.Object, error) {
	prepareForCreate(info, obj)
	prepareKindForCreate(obj)
	m := obj.GetObjectMeta()
	generated := m.Name == "" && m.GenerateName != ""
	for attempt := 1; ; attempt++ {
		cand := obj
		if generated {
			cand = obj.DeepCopyObject()
			cand.GetObjectMeta().Name = generateName(m.GenerateName)
		}
		cm := cand.GetObjectMeta()
		a := &admission.Attributes{
			Operation: admission.Create, Resource: info,
			Namespace: cm.Namespace, Name: cm.Name, Object: cand,
		}
		if err := s.admit(ctx, a); err != nil {
			return nil, err
		}
		out, err := s.storageFor(info).Create(ctx, info.Key(cm.Namespace, cm.Name), cand)
		if err != nil && api.IsAlreadyExists(err) && generated && attempt < generateNameAttempts {
			continue
		}
		return out, err
	}
}

// admit runs the mutating then the validating half of the chain.
func (s *Server) admit(ctx context.Context, a *admission.Attributes) error {
	if err := s.admission.Admit(ctx, a); err != nil {
		return err
	}
	return s.admission.Validate(ctx, a)
}

// logWrite is the one log line per write: verb, resource, key, the new
// resourceVersion and the outcome.
func (s *Server) logWrite(verb string, info *api.ResourceInfo, in, out api.Object, err error) {
	key := ""
	if in != nil {
		key, _ = api.MetaNamespaceKeyFunc(in)
	}
	rv := ""
	if out != nil {
		rv = out.GetObjectMeta().ResourceVersion
		key, _ = api.MetaNamespaceKeyFunc(out)
	}
	code := http.StatusOK
	if verb == "create" {
		code = http.StatusCreated
	}
	if err != nil {
		code = int(toStatusError(err).ErrStatus.Code)
	}
	s.log.Info("write", "verb", verb, "resource", info.GroupResource().String(), "key", key, "rv", rv, "code", code)
}
