package api

import "time"

// TypeMeta says what an object is on the wire. It is inlined into every
// object, so the JSON has top-level "apiVersion" and "kind".
type TypeMeta struct {
	// CamelCase kind of the object, such as "Pod". Servers may infer it from
	// the URL. It comes first, as in metav1.TypeMeta, so the JSON starts
	// {"kind":...,"apiVersion":...} as kube-apiserver's does.
	Kind string `json:"kind,omitempty"`
	// Group and version of the schema the object is written in, as
	// "group/version" or just "v1" for the core group.
	APIVersion string `json:"apiVersion,omitempty"`
}

// GetTypeMeta lets every kind that embeds TypeMeta satisfy Object.
func (t *TypeMeta) GetTypeMeta() *TypeMeta { return t }

// ObjectMeta is the metadata every stored object carries. The server owns
// uid, resourceVersion, generation, creationTimestamp and the deletion fields;
// clients own the rest.
type ObjectMeta struct {
	// Name of the object, unique per kind within its namespace. Required on
	// create unless generateName is set; cannot be changed.
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	// Prefix from which the server makes a unique name, by appending a random
	// suffix, when name is empty. A collision yields 409 AlreadyExists.
	GenerateName string `json:"generateName,omitempty" protobuf:"bytes,2,opt,name=generateName"`
	// Namespace the object lives in, a DNS label; empty for cluster-scoped
	// kinds. Cannot be changed.
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,3,opt,name=namespace"`
	// Deprecated: no longer set by the server.
	SelfLink string `json:"selfLink,omitempty" protobuf:"bytes,4,opt,name=selfLink"`
	// Server-generated ID, unique across the cluster's lifetime; an object
	// re-created under the same name gets a new one. Read-only.
	UID string `json:"uid,omitempty" protobuf:"bytes,5,opt,name=uid"`
	// Opaque version of the object, changed by every write. Send it back
	// unchanged for optimistic concurrency (a stale one yields 409 Conflict) or
	// to start a watch. Read-only.
	ResourceVersion string `json:"resourceVersion,omitempty" protobuf:"bytes,6,opt,name=resourceVersion"`
	// Counter of changes to the desired state (spec); the server bumps it.
	// Read-only.
	Generation int64 `json:"generation,omitempty" protobuf:"varint,7,opt,name=generation"`
	// When the server created the object, RFC 3339 in UTC. Read-only.
	CreationTimestamp Time `json:"creationTimestamp,omitempty,omitzero" protobuf:"bytes,8,opt,name=creationTimestamp"`
	// Set by the server when a graceful deletion is requested: the time after
	// which the object goes away once its finalizers are empty. It can be
	// brought forward, never unset or postponed. Read-only.
	DeletionTimestamp *Time `json:"deletionTimestamp,omitempty" protobuf:"bytes,9,opt,name=deletionTimestamp"`
	// Seconds the object was given to terminate; set together with
	// deletionTimestamp and may only shrink. Read-only.
	DeletionGracePeriodSeconds *int64 `json:"deletionGracePeriodSeconds,omitempty" protobuf:"varint,10,opt,name=deletionGracePeriodSeconds"`
	// Key/value pairs for grouping and selecting objects; selectors match on
	// them.
	Labels map[string]string `json:"labels,omitempty" protobuf:"bytes,11,rep,name=labels"`
	// Key/value pairs for arbitrary, non-identifying data that tools store;
	// not selectable.
	Annotations map[string]string `json:"annotations,omitempty" protobuf:"bytes,12,rep,name=annotations"`
	// Objects this one depends on. When every owner is gone the garbage
	// collector deletes it; at most one entry may be the controller.
	OwnerReferences []OwnerReference `json:"ownerReferences,omitempty" protobuf:"bytes,13,rep,name=ownerReferences" patchStrategy:"merge" patchMergeKey:"uid" listType:"map" listMapKey:"uid" structType:"atomic"`
	// Names of components that must finish cleaning up before the object is
	// removed; while deleting, entries can only be removed. Order does not
	// matter.
	Finalizers []string `json:"finalizers,omitempty" protobuf:"bytes,14,rep,name=finalizers" patchStrategy:"merge" listType:"set"`
	// Which field manager owns which fields, kept by server-side apply.
	// Mostly internal; users seldom need it.
	ManagedFields []ManagedFieldsEntry `json:"managedFields,omitempty" protobuf:"bytes,17,rep,name=managedFields" listType:"atomic"`
}

// GetObjectMeta lets every kind that embeds ObjectMeta satisfy Object.
func (m *ObjectMeta) GetObjectMeta() *ObjectMeta { return m }

// ListMeta is the metadata of a list: the revision it was read at, and the
// token for the next page.
type ListMeta struct {
	// Deprecated: no longer set by the server.
	SelfLink string `json:"selfLink,omitempty" protobuf:"bytes,1,opt,name=selfLink"`
	// Revision the list was read at; pass it to a watch to see every later
	// change. Opaque. Read-only.
	ResourceVersion string `json:"resourceVersion,omitempty" protobuf:"bytes,2,opt,name=resourceVersion"`
	// Opaque token for the next page when the request had a limit and more
	// items remain; empty on the last page. Tokens expire after a while.
	Continue string `json:"continue,omitempty" protobuf:"bytes,3,opt,name=continue"`
	// Estimated number of items after this page; unset when unknown (with
	// selectors) or on the last page. Do not rely on it being exact.
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty" protobuf:"varint,4,opt,name=remainingItemCount"`
	// Set when the list is one shard of the collection, selected by a shard
	// selector on the request (alpha). Do not cache it as the full list.
	ShardInfo *ShardInfo `json:"shardInfo,omitempty" protobuf:"bytes,5,opt,name=shardInfo"`
}

// GetListMeta lets every list kind satisfy ListObject.
func (m *ListMeta) GetListMeta() *ListMeta { return m }

// OwnerReference points from a dependent to its owner. The garbage collector
// follows these by UID; a controller reference has Controller=true.
type OwnerReference struct {
	// Group/version of the owner, such as "apps/v1".
	APIVersion string `json:"apiVersion" protobuf:"bytes,5,opt,name=apiVersion"`
	// Kind of the owner, such as "ReplicaSet".
	Kind string `json:"kind" protobuf:"bytes,1,opt,name=kind"`
	// Name of the owner.
	Name string `json:"name" protobuf:"bytes,3,opt,name=name"`
	// UID of the owner; the garbage collector matches on it, not the name.
	UID string `json:"uid" protobuf:"bytes,4,opt,name=uid"`
	// True if the owner is the controller that manages this object.
	Controller *bool `json:"controller,omitempty" protobuf:"varint,6,opt,name=controller"`
	// In a foreground deletion, keeps the owner until this dependent is
	// gone. Default false; setting it needs delete permission on the owner.
	BlockOwnerDeletion *bool `json:"blockOwnerDeletion,omitempty" protobuf:"varint,7,opt,name=blockOwnerDeletion"`
}

// GetControllerOf returns the owner reference with Controller=true, or nil:
// the one owner that manages the object (a pod's ReplicaSet).
// Kubernetes: apimachinery/pkg/apis/meta/v1/controller_ref.go, GetControllerOf.
func GetControllerOf(m *ObjectMeta) *OwnerReference {
	for i := range m.OwnerReferences {
		if r := &m.OwnerReferences[i]; r.Controller != nil && *r.Controller {
			return r
		}
	}
	return nil
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
	// The instant, kept in UTC at whole seconds.
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
	// Kind of the list, such as "PodList", and its apiVersion.
	TypeMeta `json:",inline"`
	// Standard list metadata: resourceVersion and the continue token.
	ListMeta `json:"metadata" protobuf:"bytes,1,opt,name=metadata"`
	// The objects.
	Items []T `json:"items" protobuf:"bytes,2,rep,name=items"`
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

// ShardInfo says which shard of a collection a list holds (alpha).
type ShardInfo struct {
	// The shard selector from the request, echoed back so a client can
	// check and merge shards.
	Selector string `json:"selector" protobuf:"bytes,1,opt,name=selector"`
}

// ManagedFieldsEntry records the set of fields one field manager owns,
// for one API version and subresource.
type ManagedFieldsEntry struct {
	// Name of the field manager, such as "kubectl-client-side-apply".
	Manager string `json:"manager,omitempty" protobuf:"bytes,1,opt,name=manager"`
	// How the fields were set: "Apply" (server-side apply) or "Update".
	Operation ManagedFieldsOperationType `json:"operation,omitempty" protobuf:"bytes,2,opt,name=operation"`
	// Group/version the field set is written in; fields do not convert
	// between versions.
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,3,opt,name=apiVersion"`
	// When this manager last added or changed a field of the set; losing a
	// field to another manager does not move it.
	Time *Time `json:"time,omitempty" protobuf:"bytes,4,opt,name=time"`
	// Format of the field set; the only one is "FieldsV1".
	FieldsType string `json:"fieldsType,omitempty" protobuf:"bytes,6,opt,name=fieldsType"`
	// The field set, in the FieldsV1 format.
	FieldsV1 *FieldsV1 `json:"fieldsV1,omitempty" protobuf:"bytes,7,opt,name=fieldsV1"`
	// Subresource the write went through, such as "status"; empty for the
	// main resource. The same manager name on two subresources counts as two
	// managers.
	Subresource string `json:"subresource,omitempty" protobuf:"bytes,8,opt,name=subresource"`
}

// ManagedFieldsOperationType is how a manager set its fields: "Apply" or
// "Update".
type ManagedFieldsOperationType string

// The managed-fields operations.
const (
	// ManagedFieldsOperationApply: the fields came from server-side apply.
	ManagedFieldsOperationApply ManagedFieldsOperationType = "Apply"
	// ManagedFieldsOperationUpdate: the fields came from a create, update or
	// patch.
	ManagedFieldsOperationUpdate ManagedFieldsOperationType = "Update"
)
