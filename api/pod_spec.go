package api

// This file holds the small parts of a PodSpec that are neither containers,
// scheduling, resources, volumes nor security.

// LocalObjectReference names an object in the same namespace as the object
// holding the reference; what kind it is depends on the field.
type LocalObjectReference struct {
	// Name of the referenced object. In practice required, although an
	// empty value is accepted for backward compatibility.
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
}

// HostAlias is one line the kubelet adds to a pod's /etc/hosts file.
type HostAlias struct {
	// IP address of the entry. Required.
	IP string `json:"ip" protobuf:"bytes,1,opt,name=ip"`
	// Host names that resolve to the IP address.
	Hostnames []string `json:"hostnames,omitempty" protobuf:"bytes,2,rep,name=hostnames" listType:"atomic"`
}

// PodDNSConfig is DNS resolver configuration added to what the pod's
// dnsPolicy produces.
type PodDNSConfig struct {
	// IP addresses of name servers, appended to those of the policy
	// (duplicates dropped).
	Nameservers []string `json:"nameservers,omitempty" protobuf:"bytes,1,rep,name=nameservers" listType:"atomic"`
	// Search domains for short host names, appended to those of the policy
	// (duplicates dropped).
	Searches []string `json:"searches,omitempty" protobuf:"bytes,2,rep,name=searches" listType:"atomic"`
	// Resolver options (as in resolv.conf's "options" line), merged with
	// those of the policy; an option given here wins.
	Options []PodDNSConfigOption `json:"options,omitempty" protobuf:"bytes,3,rep,name=options" listType:"atomic"`
}

// PodDNSConfigOption is one resolver option, such as ndots:2 or edns0.
type PodDNSConfigOption struct {
	// Name of the option, e.g. "ndots". Required.
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	// Value of the option, e.g. "2"; unset for options without a value.
	Value *string `json:"value,omitempty" protobuf:"bytes,2,opt,name=value"`
}

// PodReadinessGate names a pod condition that must be True for the pod to be
// Ready, typically one set by an external controller.
type PodReadinessGate struct {
	// Type of the pod condition to wait for in status.conditions.
	ConditionType PodConditionType `json:"conditionType" protobuf:"bytes,1,opt,name=conditionType"`
}

// PodOS says which operating system a pod's containers need.
type PodOS struct {
	// The operating system: linux or windows. Clients should treat a value
	// they do not know as if os were unset.
	Name OSName `json:"name" protobuf:"bytes,1,opt,name=name"`
}

// OSName is an operating system a pod can ask for: linux or windows.
type OSName string

// The operating systems.
const (
	Linux   OSName = "linux"
	Windows OSName = "windows"
)

// EvictionResponder is a controller that helps a pod shut down gracefully
// when its eviction is requested. Responders are tried in turn, highest
// priority first; each reports progress on the Eviction object, and one that
// stops reporting is passed over for the next.
type EvictionResponder struct {
	// Identifies the responder: a domain-prefixed key such as "acme.io/foo",
	// unique within the pod; the k8s.io and kubernetes.io domains are
	// reserved. Required.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Order in which responders are asked, highest first; ties go by domain
	// name. 0 to 100000, with 0 to 999 reserved for k8s.io responders; the
	// pod's own managing controller should use 10000. Required.
	Priority *int32 `json:"priority" protobuf:"varint,2,opt,name=priority"`
}
