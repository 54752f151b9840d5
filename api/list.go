package api

// DeepCopy copies a list and every item in it.
func (l *List[T, PT]) DeepCopy() *List[T, PT] {
	if l == nil {
		return nil
	}
	out := &List[T, PT]{TypeMeta: l.TypeMeta, ListMeta: l.ListMeta}
	out.RemainingItemCount = copyPtr(l.RemainingItemCount)
	if l.Items != nil {
		out.Items = make([]T, len(l.Items))
		for i := range l.Items {
			out.Items[i] = *any(PT(&l.Items[i]).DeepCopyObject()).(PT)
		}
	}
	return out
}
