package apiserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/store"
)

// delete answers DELETE on one object. Kubernetes:
// endpoints/handlers/delete.go (DeleteResource) and Store.Delete.
func (s *Server) delete(w http.ResponseWriter, r *http.Request, sc *scope) {
	opts, err := readDeleteOptions(r)
	if err != nil {
		writeStatus(w, err)
		return
	}
	out, err := s.deleteObject(r.Context(), sc.info, sc.ri.Namespace, sc.ri.Name, opts)
	if err != nil {
		writeStatus(w, err)
		return
	}
	writeJSON(w, http.StatusOK, withTypeMeta(sc.info, out))
}

// deleteCollection answers DELETE on a collection: every object the label
// and field selectors match is deleted as a single DELETE would, and the
// reply lists them.
func (s *Server) deleteCollection(w http.ResponseWriter, r *http.Request, sc *scope) {
	opts, err := readDeleteOptions(r)
	if err != nil {
		writeStatus(w, err)
		return
	}
	lopts, err := listOptions(r, sc.info, false)
	if err != nil {
		writeStatus(w, err)
		return
	}
	lopts.Predicate.Limit, lopts.Predicate.Continue = 0, ""
	res, err := sc.storage.List(r.Context(), sc.prefix(), lopts)
	if err != nil {
		writeStatus(w, err)
		return
	}
	deleted := make([]api.Object, 0, len(res.Items))
	for _, item := range res.Items {
		m := item.GetObjectMeta()
		out, err := s.deleteObject(r.Context(), sc.info, m.Namespace, m.Name, opts)
		if api.IsNotFound(err) {
			continue
		}
		if err != nil {
			writeStatus(w, err)
			return
		}
		deleted = append(deleted, out)
	}
	res.Items = deleted
	writeJSON(w, http.StatusOK, toList(sc.info, res))
}

// readDeleteOptions reads the optional DeleteOptions body (any or no
// Content-Type) and the query parameters that may stand in for it.
func readDeleteOptions(r *http.Request) (*api.DeleteOptions, error) {
	data, err := readBody(r)
	if err != nil {
		return nil, err
	}
	opts := &api.DeleteOptions{}
	if len(bytes.TrimSpace(data)) > 0 {
		if err := json.Unmarshal(data, opts); err != nil {
			return nil, api.NewBadRequest(fmt.Sprintf("the body of the request could not be decoded as DeleteOptions: %v", err))
		}
	}
	q := r.URL.Query()
	if g := q.Get("gracePeriodSeconds"); g != "" {
		n, err := strconv.ParseInt(g, 10, 64)
		if err != nil {
			return nil, api.NewBadRequest(fmt.Sprintf("invalid gracePeriodSeconds %q", g))
		}
		opts.GracePeriodSeconds = &n
	}
	if p := q.Get("propagationPolicy"); p != "" {
		pp := api.DeletionPropagation(p)
		opts.PropagationPolicy = &pp
	}
	if opts.PropagationPolicy != nil {
		switch *opts.PropagationPolicy {
		case api.DeletePropagationOrphan, api.DeletePropagationBackground, api.DeletePropagationForeground:
		default:
			return nil, newInvalidQualified("meta.k8s.io", "DeleteOptions", "", []api.StatusCause{fieldCause(
				api.CauseTypeFieldValueNotSupported, "propagationPolicy",
				fmt.Sprintf(`Unsupported value: %q: supported values: "Foreground", "Background", "Orphan", "nil"`, *opts.PropagationPolicy))})
		}
	}
	return opts, nil
}

// deleteObject deletes one object the way Kubernetes' Store.Delete does:
// preconditions, admission, then either removal at once, or — when the
// object has finalizers or needs a grace period (a pod on a node) — setting
// deletionTimestamp and leaving the removal to whoever clears them.
func (s *Server) deleteObject(ctx context.Context, info *api.ResourceInfo, namespace, name string, opts *api.DeleteOptions) (api.Object, error) {
	st := s.storageFor(info)
	key := info.Key(namespace, name)
	cur, err := st.Get(ctx, key, store.GetOptions{})
	if err != nil {
		return nil, err
	}
	if err := checkPreconditions(info, cur, opts.Preconditions); err != nil {
		return nil, err
	}
	a := &admission.Attributes{Operation: admission.Delete, Resource: info, Namespace: namespace, Name: name, OldObject: cur}
	if err := s.admission.Validate(ctx, a); err != nil {
		return nil, err
	}
	if _, ok := cur.(*api.Namespace); ok {
		return s.deleteNamespace(ctx, info, name)
	}
	grace := gracePeriod(cur, opts)
	finalizers := withPolicyFinalizers(cur.GetObjectMeta().Finalizers, opts)
	if grace == 0 && len(finalizers) == 0 {
		return s.removeNow(ctx, info, cur, opts)
	}
	out, err := st.GuaranteedUpdate(ctx, key, toStorePreconditions(opts.Preconditions), func(c api.Object) (api.Object, error) {
		m := c.GetObjectMeta()
		m.Finalizers = withPolicyFinalizers(m.Finalizers, opts)
		markDeleted(m, grace)
		return c, nil
	}, nil)
	s.logWrite("delete", info, cur, out, err)
	if err != nil {
		return nil, err
	}
	m := out.GetObjectMeta()
	if len(m.Finalizers) == 0 && (m.DeletionGracePeriodSeconds == nil || *m.DeletionGracePeriodSeconds == 0) {
		return s.finishDeletion(ctx, info, out)
	}
	return out, nil
}

// removeNow deletes the object from storage, guarded by its UID so a
// re-created object of the same name is never removed by mistake.
func (s *Server) removeNow(ctx context.Context, info *api.ResourceInfo, cur api.Object, opts *api.DeleteOptions) (api.Object, error) {
	m := cur.GetObjectMeta()
	pre := toStorePreconditions(opts.Preconditions)
	if pre == nil {
		uid := m.UID
		pre = &store.Preconditions{UID: &uid}
	}
	out, err := s.storageFor(info).Delete(ctx, info.Key(m.Namespace, m.Name), pre, nil, nil)
	s.logWrite("delete", info, cur, out, err)
	return out, err
}

// markDeleted sets deletionTimestamp (now plus the grace period) unless the
// deletion is already due sooner; a shorter grace period brings it forward.
func markDeleted(m *api.ObjectMeta, grace int64) {
	if m.DeletionTimestamp != nil && m.DeletionGracePeriodSeconds != nil && *m.DeletionGracePeriodSeconds <= grace {
		return
	}
	t := api.NewTime(time.Now().Add(time.Duration(grace) * time.Second))
	m.DeletionTimestamp = &t
	m.DeletionGracePeriodSeconds = &grace
}

// withPolicyFinalizers adds or removes the garbage collector's finalizers as
// the propagation policy asks (Kubernetes: deletionFinalizersForGarbageCollection).
func withPolicyFinalizers(finalizers []string, opts *api.DeleteOptions) []string {
	policy := api.DeletionPropagation("")
	if opts.PropagationPolicy != nil {
		policy = *opts.PropagationPolicy
	} else if opts.OrphanDependents != nil && *opts.OrphanDependents {
		policy = api.DeletePropagationOrphan
	}
	out := append([]string(nil), finalizers...)
	switch policy {
	case api.DeletePropagationOrphan:
		out = addString(removeString(out, api.FinalizerDeleteDependents), api.FinalizerOrphanDependents)
	case api.DeletePropagationForeground:
		out = addString(removeString(out, api.FinalizerOrphanDependents), api.FinalizerDeleteDependents)
	case api.DeletePropagationBackground:
		out = removeString(removeString(out, api.FinalizerOrphanDependents), api.FinalizerDeleteDependents)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// gracePeriod is how long the object may take to go. Only pods bound to a
// node have one (Kubernetes: pod strategy CheckGracefulDelete); everything
// else goes at once, or as soon as its finalizers are cleared.
func gracePeriod(obj api.Object, opts *api.DeleteOptions) int64 {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return 0
	}
	if pod.Spec.NodeName == "" || pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed {
		return 0
	}
	grace := int64(30)
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		grace = *pod.Spec.TerminationGracePeriodSeconds
	}
	if opts.GracePeriodSeconds != nil {
		grace = *opts.GracePeriodSeconds
	}
	if grace < 0 {
		grace = 0
	}
	return grace
}

// checkPreconditions is the 409 of a DELETE whose uid or resourceVersion
// precondition does not hold, in Kubernetes' words.
func checkPreconditions(info *api.ResourceInfo, cur api.Object, p *api.Preconditions) error {
	if p == nil {
		return nil
	}
	m := cur.GetObjectMeta()
	if p.UID != nil && *p.UID != m.UID {
		return api.NewConflict(info.GroupResource(), m.Name, fmt.Errorf(
			"Precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, m.UID))
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != m.ResourceVersion {
		return api.NewConflict(info.GroupResource(), m.Name, fmt.Errorf(
			"Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v", *p.ResourceVersion, m.ResourceVersion))
	}
	return nil
}

func toStorePreconditions(p *api.Preconditions) *store.Preconditions {
	if p == nil || (p.UID == nil && p.ResourceVersion == nil) {
		return nil
	}
	return &store.Preconditions{UID: p.UID, ResourceVersion: p.ResourceVersion}
}

func addString(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func removeString(list []string, s string) []string {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}
