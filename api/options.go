package api

// DeleteOptions is the optional body of a DELETE (meta/v1). Clients send it
// as {"kind":"DeleteOptions","apiVersion":"v1",...}, or "meta.k8s.io/v1",
// or with no type at all.
type DeleteOptions struct {
	TypeMeta           `json:",inline"`
	GracePeriodSeconds *int64               `json:"gracePeriodSeconds,omitempty"`
	Preconditions      *Preconditions       `json:"preconditions,omitempty"`
	OrphanDependents   *bool                `json:"orphanDependents,omitempty"`
	PropagationPolicy  *DeletionPropagation `json:"propagationPolicy,omitempty"`
	DryRun             []string             `json:"dryRun,omitempty"`
}

// Preconditions must hold for a delete to go ahead.
type Preconditions struct {
	UID             *string `json:"uid,omitempty"`
	ResourceVersion *string `json:"resourceVersion,omitempty"`
}

// DeletionPropagation says what happens to an object's dependents.
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
