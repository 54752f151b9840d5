package api

// DeepCopy copies a ConfigMap; the copy shares no memory with the original.
func (in *ConfigMap) DeepCopy() *ConfigMap {
	if in == nil {
		return nil
	}
	out := *in
	out.ObjectMeta = *in.ObjectMeta.DeepCopy()
	if in.Immutable != nil {
		v := *in.Immutable
		out.Immutable = &v
	}
	out.Data = copyStringMap(in.Data)
	if in.BinaryData != nil {
		out.BinaryData = make(map[string][]byte, len(in.BinaryData))
		for k, v := range in.BinaryData {
			out.BinaryData[k] = append([]byte(nil), v...)
		}
	}
	return &out
}

// DeepCopyObject satisfies Object.
func (in *ConfigMap) DeepCopyObject() Object { return in.DeepCopy() }

// DeepCopy copies ObjectMeta.
func (in *ObjectMeta) DeepCopy() *ObjectMeta {
	if in == nil {
		return nil
	}
	out := *in
	out.DeletionTimestamp = in.DeletionTimestamp.DeepCopy()
	if in.DeletionGracePeriodSeconds != nil {
		v := *in.DeletionGracePeriodSeconds
		out.DeletionGracePeriodSeconds = &v
	}
	out.Labels = copyStringMap(in.Labels)
	out.Annotations = copyStringMap(in.Annotations)
	if in.OwnerReferences != nil {
		out.OwnerReferences = make([]OwnerReference, len(in.OwnerReferences))
		for i := range in.OwnerReferences {
			out.OwnerReferences[i] = *in.OwnerReferences[i].DeepCopy()
		}
	}
	if in.Finalizers != nil {
		out.Finalizers = append([]string(nil), in.Finalizers...)
	}
	return &out
}

// DeepCopy copies an OwnerReference.
func (in *OwnerReference) DeepCopy() *OwnerReference {
	out := *in
	if in.Controller != nil {
		v := *in.Controller
		out.Controller = &v
	}
	if in.BlockOwnerDeletion != nil {
		v := *in.BlockOwnerDeletion
		out.BlockOwnerDeletion = &v
	}
	return &out
}

func copyStringMap(in map[string]string) map[string]string {
	if in == nil {
		return nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}
