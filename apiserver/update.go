package apiserver

import (
	"context"
	"errors"
	"net/http"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/store"
)

// update answers PUT on an object or its status. Kubernetes:
// endpoints/handlers/update.go (UpdateResource) and Store.Update.
func (s *Server) update(w http.ResponseWriter, r *http.Request, sc *scope) {
	if sc.ri.Name == "" {
		writeStatus(w, api.NewMethodNotSupported(sc.info.GroupResource(), "PUT"))
		return
	}
	obj, warnings, err := s.decodeWrite(r, sc, "UpdateOptions")
	if err != nil {
		writeStatus(w, err)
		return
	}
	out, err := s.updateObject(r.Context(), sc, func(api.Object) (api.Object, error) {
		return obj.DeepCopyObject(), nil
	})
	s.logWrite(verbWithSub("update", sc), sc.info, obj, out, err)
	if err != nil {
		writeStatus(w, err)
		return
	}
	setWarnings(w, warnings)
	writeJSON(w, http.StatusOK, withTypeMeta(sc.info, out))
}

func verbWithSub(verb string, sc *scope) string {
	if sc.ri.Subresource != "" {
		return verb + "/" + sc.ri.Subresource
	}
	return verb
}

// updateObject is the read-modify-write every update, patch and scale goes
// through. build turns the current object into what the client asked for;
// then, as Kubernetes' strategies do, the main resource keeps the old status
// and /status keeps everything but status, labels and annotations. A
// non-empty resourceVersion in the result is a precondition (409 if stale).
// If the write removes the last finalizer of an object being deleted, the
// object is deleted right after, in the same request.
func (s *Server) updateObject(ctx context.Context, sc *scope, build func(cur api.Object) (api.Object, error)) (api.Object, error) {
	info, sub := sc.info, sc.ri.Subresource
	deleteNow := false
	tryUpdate := func(cur api.Object) (api.Object, error) {
		cm := cur.GetObjectMeta()
		in, err := build(cur.DeepCopyObject())
		if err != nil {
			return nil, err
		}
		if rv := in.GetObjectMeta().ResourceVersion; rv != "" && rv != cm.ResourceVersion {
			return nil, api.NewConflict(info.GroupResource(), cm.Name, api.ErrObjectModified)
		}
		var next api.Object
		switch sub {
		case "status":
			next = cur.DeepCopyObject()
			copyStatus(next, in)
			im := in.GetObjectMeta()
			next.GetObjectMeta().Labels = im.Labels
			next.GetObjectMeta().Annotations = im.Annotations
		case "":
			next = in
			if info.HasStatus {
				copyStatus(next, cur)
			}
		default:
			next = in // scale: built from the current object
		}
		prepareForUpdate(info, next, cur)
		nm := next.GetObjectMeta()
		a := &admission.Attributes{
			Operation: admission.Update, Resource: info, Subresource: sub,
			Namespace: nm.Namespace, Name: nm.Name, Object: next, OldObject: cur,
		}
		if err := s.admission.Admit(ctx, a); err != nil {
			return nil, err
		}
		// Generation is compared after defaulting, so that a manifest
		// without defaulted fields does not count as a spec change.
		bumpGeneration(info, next, cur)
		if err := s.admission.Validate(ctx, a); err != nil {
			return nil, err
		}
		deleteNow = shouldDeleteDuringUpdate(next)
		return next, nil
	}
	out, err := sc.storage.GuaranteedUpdate(ctx, sc.key(), nil, tryUpdate, nil)
	if err != nil || !deleteNow {
		return out, err
	}
	return s.finishDeletion(ctx, sc.info, out)
}

// shouldDeleteDuringUpdate: the object is being deleted and this update
// leaves it with no finalizer and no grace period left. Any write that leaves a deleting object without finalizers finishes the
// deletion, whether or not it removed the last finalizer itself: if the
// write that did was overtaken (say by a status update) before its delete,
// the next write must not leave the object stuck. Kubernetes:
// registry/generic/registry/store.go, shouldDeleteDuringUpdate.
func shouldDeleteDuringUpdate(next api.Object) bool {
	nm := next.GetObjectMeta()
	if nm.DeletionTimestamp == nil || len(nm.Finalizers) > 0 {
		return false
	}
	return nm.DeletionGracePeriodSeconds == nil || *nm.DeletionGracePeriodSeconds == 0
}

// errDeletionStillBlocked: the object gained a finalizer (or lost its
// deletionTimestamp) between our write and our delete.
var errDeletionStillBlocked = errors.New("deletion is blocked again")

// finishDeletion removes an object whose deletion is no longer blocked. It
// checks the object as it is at delete time rather than pinning the version
// just written: a concurrent write (a status update) must not leave it stuck.
func (s *Server) finishDeletion(ctx context.Context, info *api.ResourceInfo, obj api.Object) (api.Object, error) {
	m := obj.GetObjectMeta()
	uid := m.UID
	key := info.Key(m.Namespace, m.Name)
	stillUnblocked := func(cur api.Object) error {
		cm := cur.GetObjectMeta()
		if cm.DeletionTimestamp == nil || len(cm.Finalizers) > 0 {
			return errDeletionStillBlocked
		}
		return nil
	}
	out, err := s.storageFor(info).Delete(ctx, key, &store.Preconditions{UID: &uid}, stillUnblocked, nil)
	switch {
	case err == nil:
		s.logWrite("delete", info, obj, out, nil)
		return out, nil
	case errors.Is(err, errDeletionStillBlocked), api.IsConflict(err), api.IsNotFound(err):
		return obj, nil
	}
	return nil, err
}
