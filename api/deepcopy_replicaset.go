package api

// DeepCopy copies a ReplicaSet; the copy shares no memory with the original.
func (in *ReplicaSet) DeepCopy() *ReplicaSet {
	if in == nil {
		return nil
	}
	out := *in
	out.ObjectMeta = *in.ObjectMeta.DeepCopy()
	out.Spec.Replicas = copyPtr(in.Spec.Replicas)
	out.Spec.Selector = in.Spec.Selector.DeepCopy()
	out.Spec.Template = *in.Spec.Template.DeepCopy()
	out.Status.Conditions = copySlice(in.Status.Conditions)
	return &out
}

// DeepCopyObject satisfies Object.
func (in *ReplicaSet) DeepCopyObject() Object { return in.DeepCopy() }

// DeepCopy copies a PodTemplateSpec.
func (in *PodTemplateSpec) DeepCopy() *PodTemplateSpec {
	return &PodTemplateSpec{ObjectMeta: *in.ObjectMeta.DeepCopy(), Spec: *in.Spec.DeepCopy()}
}

// DeepCopy copies a LabelSelector, nil-safe.
func (in *LabelSelector) DeepCopy() *LabelSelector {
	if in == nil {
		return nil
	}
	out := LabelSelector{MatchLabels: copyStringMap(in.MatchLabels)}
	if in.MatchExpressions != nil {
		out.MatchExpressions = make([]LabelSelectorRequirement, len(in.MatchExpressions))
		for i, r := range in.MatchExpressions {
			r.Values = copySlice(r.Values)
			out.MatchExpressions[i] = r
		}
	}
	return &out
}
