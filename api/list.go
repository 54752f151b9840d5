package api

// DeepCopy copies a list and every item in it. It is written by hand because
// deepcopy-gen does not handle generic types; the metadata uses the
// generated copies (zz_generated.deepcopy.go).
func (l *List[T, PT]) DeepCopy() *List[T, PT] {
	if l == nil {
		return nil
	}
	out := &List[T, PT]{TypeMeta: l.TypeMeta}
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	if l.Items != nil {
		out.Items = make([]T, len(l.Items))
		for i := range l.Items {
			out.Items[i] = *any(PT(&l.Items[i]).DeepCopyObject()).(PT)
		}
	}
	return out
}
