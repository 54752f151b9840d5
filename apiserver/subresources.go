package apiserver

import (
	"context"
	"fmt"
	"net/http"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/store"
)

// serveScale answers the scale subresource of replicasets: an
// autoscaling/v1 Scale that is a view of spec.replicas, status.replicas and
// the selector. Kubernetes: pkg/registry/apps/replicaset/storage/storage.go
// (ScaleREST).
func (s *Server) serveScale(w http.ResponseWriter, r *http.Request, sc *scope) {
	var (
		out      *api.Scale
		err      error
		warnings []string
	)
	switch sc.ri.Verb {
	case "get":
		var obj api.Object
		if obj, err = sc.storage.Get(r.Context(), sc.key(), getOptions(r)); err == nil {
			out, err = scaleFromReplicaSet(obj)
		}
	case "update":
		var want *api.Scale
		if want, warnings, err = decodeScale(r); err == nil {
			out, err = s.updateScale(r.Context(), sc, func(*api.Scale) (*api.Scale, error) { return want.DeepCopy(), nil })
		}
	case "patch":
		var directive, patchType string
		var patch []byte
		if directive, patchType, patch, err = readPatch(r); err == nil {
			out, err = s.updateScale(r.Context(), sc, func(cur *api.Scale) (*api.Scale, error) {
				patched, err := applyPatch(patchType, cur, patch, nil)
				if err != nil {
					return nil, err
				}
				want := &api.Scale{}
				warnings, err = decodePatched("autoscaling", "Scale", sc.ri.Name, patched, want, directive)
				return want, err
			})
		}
	default:
		err = api.NewMethodNotSupported(api.GroupResource{Group: sc.info.Group, Resource: sc.info.Resource + "/scale"}, sc.ri.Verb)
	}
	if sc.ri.Verb != "get" {
		var logged api.Object
		if out != nil {
			logged = out
		}
		s.logWrite(sc.ri.Verb+"/scale", sc.info, nil, logged, err)
	}
	if err != nil {
		writeStatus(w, err)
		return
	}
	setWarnings(w, warnings)
	writeJSON(w, http.StatusOK, out)
}

// decodeScale reads the body of PUT .../scale; kubectl sends it with no
// Content-Type, which means JSON.
func decodeScale(r *http.Request) (*api.Scale, []string, error) {
	directive, err := fieldValidation(r, "UpdateOptions")
	if err != nil {
		return nil, nil, err
	}
	if err := checkJSONContentType(r); err != nil {
		return nil, nil, err
	}
	data, err := readBody(r)
	if err != nil {
		return nil, nil, err
	}
	want := &api.Scale{}
	problems, err := decodeWithDirective(data, want, directive)
	if err != nil {
		return nil, nil, api.NewBadRequest(err.Error())
	}
	if len(problems) > 0 && directive == fieldValidationStrict {
		return nil, nil, api.NewBadRequest(strictError(problems))
	}
	return want, problems, nil
}

// updateScale writes spec.replicas of the ReplicaSet through the common
// read-modify-write, so admission validates the ReplicaSet as for any update.
func (s *Server) updateScale(ctx context.Context, sc *scope, build func(cur *api.Scale) (*api.Scale, error)) (*api.Scale, error) {
	out, err := s.updateObject(ctx, sc, func(cur api.Object) (api.Object, error) {
		rs, ok := cur.(*api.ReplicaSet)
		if !ok {
			return nil, fmt.Errorf("scale of %T is not supported", cur)
		}
		curScale, err := scaleFromReplicaSet(rs)
		if err != nil {
			return nil, err
		}
		want, err := build(curScale)
		if err != nil {
			return nil, err
		}
		if want.Name != "" && want.Name != sc.ri.Name {
			return nil, api.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", want.Name, sc.ri.Name))
		}
		if want.Spec.Replicas < 0 {
			return nil, newInvalidQualified("autoscaling", "Scale", sc.ri.Name, []api.StatusCause{fieldCause(
				api.CauseTypeFieldValueInvalid, "spec.replicas",
				fmt.Sprintf("Invalid value: %d: must be greater than or equal to 0", want.Spec.Replicas))})
		}
		// The Scale's resourceVersion is the ReplicaSet's: a stale one is 409.
		rs.ResourceVersion = want.ResourceVersion
		replicas := want.Spec.Replicas
		rs.Spec.Replicas = &replicas
		return rs, nil
	})
	if err != nil {
		return nil, err
	}
	return scaleFromReplicaSet(out)
}

// scaleFromReplicaSet is the Scale view of a ReplicaSet.
func scaleFromReplicaSet(obj api.Object) (*api.Scale, error) {
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return nil, fmt.Errorf("scale of %T is not supported", obj)
	}
	sel := ""
	if rs.Spec.Selector != nil {
		s, err := api.LabelSelectorAsSelector(rs.Spec.Selector)
		if err != nil {
			return nil, api.NewBadRequest(fmt.Sprintf("invalid selector: %v", err))
		}
		sel = s.String()
	}
	replicas := int32(1)
	if rs.Spec.Replicas != nil {
		replicas = *rs.Spec.Replicas
	}
	sc := api.NewScale()
	sc.ObjectMeta = api.ObjectMeta{
		Name: rs.Name, Namespace: rs.Namespace, UID: rs.UID,
		ResourceVersion: rs.ResourceVersion, CreationTimestamp: rs.CreationTimestamp,
	}
	sc.Spec.Replicas = replicas
	sc.Status.Replicas = rs.Status.Replicas
	sc.Status.Selector = sel
	return sc, nil
}

// bind answers POST pods/NAME/binding: spec.nodeName is set once, through
// the common read-modify-write. Kubernetes:
// pkg/registry/core/pod/storage/storage.go (BindingREST.Create, assignPod).
//
// Kubernetes does not check that the node exists, and neither do we: a pod
// bound to a missing node simply never starts.
func (s *Server) bind(w http.ResponseWriter, r *http.Request, sc *scope) {
	b, err := decodeBinding(r, sc)
	if err != nil {
		writeStatus(w, err)
		return
	}
	// Admission sees the Binding, as in Kubernetes; the write of the pod
	// that follows is the registry's own and is not admitted again (pod
	// updates may not change spec.nodeName).
	a := &admission.Attributes{
		Operation: admission.Create, Resource: sc.info, Subresource: "binding",
		Namespace: sc.ri.Namespace, Name: sc.ri.Name, Object: b,
	}
	if err := s.admit(r.Context(), a); err != nil {
		writeStatus(w, err)
		return
	}
	node := b.Target.Name
	out, err := sc.storage.GuaranteedUpdate(r.Context(), sc.key(), nil, func(cur api.Object) (api.Object, error) {
		pod, ok := cur.(*api.Pod)
		if !ok {
			return nil, fmt.Errorf("binding of %T is not supported", cur)
		}
		gr := api.GroupResource{Resource: "pods/binding"}
		if pod.DeletionTimestamp != nil {
			return nil, api.NewConflict(gr, pod.Name, fmt.Errorf("pod %s is being deleted, cannot be assigned to a host", pod.Name))
		}
		if pod.Spec.NodeName != "" {
			return nil, api.NewConflict(gr, pod.Name, fmt.Errorf("pod %s is already assigned to node %q", pod.Name, pod.Spec.NodeName))
		}
		if b.UID != "" && b.UID != pod.UID {
			return nil, api.NewConflict(gr, pod.Name, fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", b.UID, pod.UID))
		}
		old := pod.DeepCopy()
		pod.Spec.NodeName = node
		setPodScheduled(pod)
		bumpGeneration(sc.info, pod, old)
		return pod, nil
	}, nil)
	s.logWrite("create/binding", sc.info, nil, out, err)
	if err != nil {
		writeStatus(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, successStatus(http.StatusCreated))
}

func decodeBinding(r *http.Request, sc *scope) (*api.Binding, error) {
	directive, err := fieldValidation(r, "CreateOptions")
	if err != nil {
		return nil, err
	}
	if err := checkJSONContentType(r); err != nil {
		return nil, err
	}
	data, err := readBody(r)
	if err != nil {
		return nil, err
	}
	b := &api.Binding{}
	problems, err := decodeWithDirective(data, b, directive)
	if err != nil {
		return nil, api.NewBadRequest(err.Error())
	}
	if len(problems) > 0 && directive == fieldValidationStrict {
		return nil, api.NewBadRequest(strictError(problems))
	}
	if b.Name != "" && b.Name != sc.ri.Name {
		return nil, api.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", b.Name, sc.ri.Name))
	}
	if b.Namespace != "" && b.Namespace != sc.ri.Namespace {
		return nil, api.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	if b.Target.Name == "" {
		return nil, api.NewInvalid("", "Binding", sc.ri.Name, []api.StatusCause{fieldCause(
			api.CauseTypeFieldValueRequired, "target.name", "Required value")})
	}
	return b, nil
}

// setPodScheduled records the scheduling in the PodScheduled condition, as
// assignPod does.
func setPodScheduled(pod *api.Pod) {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == api.PodScheduled {
			// The reason and message of an earlier Unschedulable no longer
			// hold once the pod is bound.
			pod.Status.Conditions[i] = api.PodCondition{
				Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: api.Now(),
			}
			return
		}
	}
	pod.Status.Conditions = append(pod.Status.Conditions, api.PodCondition{
		Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: api.Now(),
	})
}

func getOptions(r *http.Request) store.GetOptions {
	return store.GetOptions{ResourceVersion: r.URL.Query().Get("resourceVersion")}
}
