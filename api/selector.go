package api

// Selector matches objects by their labels. The zero-requirement selector
// (Everything) matches every object.
//
// Parsing lives in labels.go (ParseSelector, for the string syntax
// "a=b,c in (x,y),!d") and LabelSelectorAsSelector (for the
// matchLabels/matchExpressions object).
type Selector interface {
	Matches(labels map[string]string) bool
	// Empty is true when the selector matches everything.
	Empty() bool
	// String renders the selector in the string syntax ParseSelector reads.
	String() string
}

// FieldSelector matches objects by the field values of
// ResourceInfo.ObjectFields: "metadata.name=x,spec.nodeName!=".
// Only =, == and != exist, as in Kubernetes.
type FieldSelector interface {
	Matches(fields map[string]string) bool
	Empty() bool
	String() string
	// RequiresExactMatch reports the value the selector requires field to
	// equal, if it has such a requirement. Caches use it to pick an index.
	RequiresExactMatch(field string) (value string, found bool)
	// Requirements lists the clauses, for code that checks or rewrites
	// the fields they name (the apiserver's field label conversion).
	Requirements() FieldRequirements
}
