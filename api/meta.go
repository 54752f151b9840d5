package api

import "time"

// TypeMeta says what an object is on the wire. It is inlined into every
// object, so the JSON has top-level "apiVersion" and "kind".
type TypeMeta struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

// GetTypeMeta lets every kind that embeds TypeMeta satisfy Object.
func (t *TypeMeta) GetTypeMeta() *TypeMeta { return t }

// ObjectMeta is the metadata every stored object carries. The server owns
// uid, resourceVersion, generation, creationTimestamp and the deletion fields;
// clients own the rest.
type ObjectMeta struct {
	Name                       string            `json:"name,omitempty"`
	GenerateName               string            `json:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	UID                        string            `json:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty"`
	Generation                 int64             `json:"generation,omitempty"`
	CreationTimestamp          Time              `json:"creationTimestamp,omitempty"`
	DeletionTimestamp          *Time             `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitempty"`
	Finalizers                 []string          `json:"finalizers,omitempty"`
}

// GetObjectMeta lets every kind that embeds ObjectMeta satisfy Object.
func (m *ObjectMeta) GetObjectMeta() *ObjectMeta { return m }

// ListMeta is the metadata of a list: the revision it was read at, and the
// token for the next page.
type ListMeta struct {
	ResourceVersion    string `json:"resourceVersion,omitempty"`
	Continue           string `json:"continue,omitempty"`
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty"`
}

// GetListMeta lets every list kind satisfy ListObject.
func (m *ListMeta) GetListMeta() *ListMeta { return m }

// OwnerReference points from a dependent to its owner. The garbage collector
// follows these by UID; a controller reference has Controller=true.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// Object is what every stored kind is. Both methods return pointers into the
// object itself, so generic code can read and set metadata without knowing
// the concrete type.
type Object interface {
	GetTypeMeta() *TypeMeta
	GetObjectMeta() *ObjectMeta
	DeepCopyObject() Object
}

// ListObject is what every list kind is.
type ListObject interface {
	GetTypeMeta() *TypeMeta
	GetListMeta() *ListMeta
	// GetItems returns pointers to the items; SetItems replaces them.
	GetItems() []Object
	SetItems([]Object)
}

// Time is a timestamp that goes on the wire as RFC 3339 in UTC with whole
// seconds, and as null when zero, as metav1.Time does.
type Time struct {
	time.Time
}

// Now returns the current time truncated to what the wire keeps.
func Now() Time { return Time{time.Now().UTC().Truncate(time.Second)} }

// NewTime wraps t, truncated to what the wire keeps.
func NewTime(t time.Time) Time { return Time{t.UTC().Truncate(time.Second)} }

// MarshalJSON writes RFC 3339 seconds, or null for the zero time.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return appendTimeJSON(make([]byte, 0, len(time.RFC3339)+2), t.Time, time.RFC3339), nil
}

// UnmarshalJSON reads RFC 3339 (fractions are accepted and dropped) or null.
func (t *Time) UnmarshalJSON(b []byte) error {
	return unmarshalTime(b, &t.Time, time.RFC3339, time.Second)
}

// unmarshalTime reads a JSON string in layout (or null, the zero time) and
// keeps it in UTC at the given precision. Time and MicroTime share it.
func unmarshalTime(b []byte, into *time.Time, layout string, precision time.Duration) error {
	if string(b) == "null" {
		*into = time.Time{}
		return nil
	}
	s, err := unquoteJSON(b)
	if err != nil {
		return err
	}
	parsed, err := time.Parse(layout, s)
	if err != nil {
		return err
	}
	*into = parsed.UTC().Truncate(precision)
	return nil
}

// List is the shape of every list kind: PodList is List[Pod], and so on.
// Items are values, as in Kubernetes, so the JSON is {"items":[{...}]}.
type List[T any, PT interface {
	*T
	Object
}] struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata"`
	Items    []T `json:"items"`
}

// GetItems returns pointers into the list's backing array.
func (l *List[T, PT]) GetItems() []Object {
	out := make([]Object, len(l.Items))
	for i := range l.Items {
		out[i] = PT(&l.Items[i])
	}
	return out
}

// SetItems replaces the items with copies of the given objects' values.
func (l *List[T, PT]) SetItems(objs []Object) {
	l.Items = make([]T, len(objs))
	for i, o := range objs {
		l.Items[i] = *any(o).(PT)
	}
}
