package api

// DeleteOptions is the optional body of a DELETE (meta/v1). Clients send it
// as {"kind":"DeleteOptions","apiVersion":"v1",...}, or "meta.k8s.io/v1",
// or with no type at all.
type DeleteOptions struct {
	// Kind "DeleteOptions" and apiVersion "v1" or "meta.k8s.io/v1"; both may
	// be left out.
	TypeMeta `json:",inline"`
	// Seconds the object gets to shut down before it is removed; 0 deletes
	// at once, unset uses the object's default (for a pod, its
	// terminationGracePeriodSeconds). Must not be negative.
	GracePeriodSeconds *int64 `json:"gracePeriodSeconds,omitempty" protobuf:"varint,1,opt,name=gracePeriodSeconds"`
	// Conditions the object must meet, else the delete fails with 409 Conflict.
	Preconditions *Preconditions `json:"preconditions,omitempty" protobuf:"bytes,2,opt,name=preconditions"`
	// Deprecated: use propagationPolicy. true orphans the dependents, false
	// deletes them; at most one of the two may be set.
	OrphanDependents *bool `json:"orphanDependents,omitempty" protobuf:"varint,3,opt,name=orphanDependents"`
	// What happens to dependents: "Orphan", "Background" or "Foreground".
	// Unset: decided by the object's finalizers and the kind's default.
	PropagationPolicy *DeletionPropagation `json:"propagationPolicy,omitempty" protobuf:"bytes,4,opt,name=propagationPolicy"`
	// When set (the only value is "All"), the request is checked and
	// answered but nothing is stored.
	DryRun []string `json:"dryRun,omitempty" protobuf:"bytes,5,rep,name=dryRun" listType:"atomic"`
	// When true, an object the store cannot read or decode is removed
	// anyway, skipping finalizers and preconditions. Dangerous; default false.
	IgnoreStoreReadErrorWithClusterBreakingPotential *bool `json:"ignoreStoreReadErrorWithClusterBreakingPotential,omitempty" protobuf:"varint,6,opt,name=ignoreStoreReadErrorWithClusterBreakingPotential"`
}

// Preconditions must hold for a delete to go ahead.
type Preconditions struct {
	// The object's UID must equal this.
	UID *string `json:"uid,omitempty" protobuf:"bytes,1,opt,name=uid"`
	// The object's resourceVersion must equal this.
	ResourceVersion *string `json:"resourceVersion,omitempty" protobuf:"bytes,2,opt,name=resourceVersion"`
}

// DeletionPropagation says what happens to an object's dependents:
// "Orphan", "Background" or "Foreground".
type DeletionPropagation string

// The propagation policies.
const (
	// DeletePropagationOrphan leaves dependents, removing their owner reference.
	DeletePropagationOrphan DeletionPropagation = "Orphan"
	// DeletePropagationBackground deletes the owner now and dependents after.
	DeletePropagationBackground DeletionPropagation = "Background"
	// DeletePropagationForeground keeps the owner (with the foregroundDeletion
	// finalizer) until every blocking dependent is gone.
	DeletePropagationForeground DeletionPropagation = "Foreground"
)

// Finalizers the garbage collector understands.
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
)

// DryRunAll is the only dryRun value.
const DryRunAll = "All"

// NewDeleteOptions returns DeleteOptions with its TypeMeta set.
func NewDeleteOptions() *DeleteOptions {
	return &DeleteOptions{TypeMeta: TypeMeta{APIVersion: "v1", Kind: "DeleteOptions"}}
}
