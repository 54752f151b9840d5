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

// DeepCopy copies a Lease.
func (in *Lease) DeepCopy() *Lease {
	if in == nil {
		return nil
	}
	out := *in
	out.ObjectMeta = *in.ObjectMeta.DeepCopy()
	s := &in.Spec
	if s.HolderIdentity != nil {
		v := *s.HolderIdentity
		out.Spec.HolderIdentity = &v
	}
	out.Spec.LeaseDurationSeconds = copyPtr(s.LeaseDurationSeconds)
	out.Spec.AcquireTime = s.AcquireTime.DeepCopy()
	out.Spec.RenewTime = s.RenewTime.DeepCopy()
	out.Spec.LeaseTransitions = copyPtr(s.LeaseTransitions)
	return &out
}

// DeepCopyObject satisfies Object.
func (in *Lease) DeepCopyObject() Object { return in.DeepCopy() }
