package api

// Lease is a lock with a holder and an expiry: leader election and node
// heartbeats use it (coordination.k8s.io/v1).
type Lease struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       LeaseSpec `json:"spec,omitempty"`
}

// LeaseList is a list of Leases.
type LeaseList = List[Lease, *Lease]

// LeaseSpec: who holds the lease, since when, and for how long after the
// last renewal. The times are MicroTime because renewals are frequent.
type LeaseSpec struct {
	HolderIdentity       *string    `json:"holderIdentity,omitempty"`
	LeaseDurationSeconds *int32     `json:"leaseDurationSeconds,omitempty"`
	AcquireTime          *MicroTime `json:"acquireTime,omitempty"`
	RenewTime            *MicroTime `json:"renewTime,omitempty"`
	LeaseTransitions     *int32     `json:"leaseTransitions,omitempty"`
}
