package api

// Lease is a lock with a holder and an expiry: leader election and node
// heartbeats use it (coordination.k8s.io/v1).
type Lease struct {
	// Kind "Lease" and apiVersion "coordination.k8s.io/v1".
	TypeMeta `json:",inline"`
	// Standard object metadata.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Holder and timing of the lease.
	Spec LeaseSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
}

// LeaseList is a list of Leases.
type LeaseList = List[Lease, *Lease]

// LeaseSpec is who holds the lease, since when, and for how long after the
// last renewal. The times are MicroTime because renewals are frequent.
type LeaseSpec struct {
	// Identity of the current holder; with coordinated leader election, the
	// name of the elected LeaseCandidate.
	HolderIdentity *string `json:"holderIdentity,omitempty" protobuf:"bytes,1,opt,name=holderIdentity"`
	// Seconds after renewTime that another candidate must wait before it may
	// take the lease over.
	LeaseDurationSeconds *int32 `json:"leaseDurationSeconds,omitempty" protobuf:"varint,2,opt,name=leaseDurationSeconds"`
	// When the current holder acquired the lease, to the microsecond.
	AcquireTime *MicroTime `json:"acquireTime,omitempty" protobuf:"bytes,3,opt,name=acquireTime"`
	// When the current holder last renewed the lease, to the microsecond.
	RenewTime *MicroTime `json:"renewTime,omitempty" protobuf:"bytes,4,opt,name=renewTime"`
	// How many times the lease has changed hands.
	LeaseTransitions *int32 `json:"leaseTransitions,omitempty" protobuf:"varint,5,opt,name=leaseTransitions"`
	// How coordinated leader election picks the holder (alpha); unset means
	// the lease is not coordinated.
	Strategy *CoordinatedLeaseStrategy `json:"strategy,omitempty" protobuf:"bytes,6,opt,name=strategy"`
	// A better holder the current one should hand the lease to; only with
	// strategy set.
	PreferredHolder *string `json:"preferredHolder,omitempty" protobuf:"bytes,7,opt,name=preferredHolder"`
}

// CoordinatedLeaseStrategy is how coordinated leader election picks a
// lease's holder among candidates; the only value is "OldestEmulationVersion".
type CoordinatedLeaseStrategy string

// OldestEmulationVersion picks the candidate with the lowest emulation
// version, then the lowest binary version, then the oldest one.
const OldestEmulationVersion CoordinatedLeaseStrategy = "OldestEmulationVersion"
