package api

// DeepCopy copies a Node; the copy shares no memory with the original.
func (in *Node) DeepCopy() *Node {
	if in == nil {
		return nil
	}
	out := *in
	out.ObjectMeta = *in.ObjectMeta.DeepCopy()
	out.Spec.PodCIDRs = copySlice(in.Spec.PodCIDRs)
	if in.Spec.Taints != nil {
		out.Spec.Taints = make([]Taint, len(in.Spec.Taints))
		for i, t := range in.Spec.Taints {
			t.TimeAdded = t.TimeAdded.DeepCopy()
			out.Spec.Taints[i] = t
		}
	}
	out.Status.Capacity = in.Status.Capacity.DeepCopy()
	out.Status.Allocatable = in.Status.Allocatable.DeepCopy()
	out.Status.Conditions = copySlice(in.Status.Conditions)
	out.Status.Addresses = copySlice(in.Status.Addresses)
	return &out
}

// DeepCopyObject satisfies Object.
func (in *Node) DeepCopyObject() Object { return in.DeepCopy() }
