package api

// PodSecurityContext is the security setup shared by every container of a
// pod. A container's own SecurityContext wins wherever both set a field.
type PodSecurityContext struct {
	// SELinux labels for all containers; the runtime picks random ones when
	// unset. Not allowed when spec.os.name is windows.
	SELinuxOptions *SELinuxOptions `json:"seLinuxOptions,omitempty" protobuf:"bytes,1,opt,name=seLinuxOptions"`
	// Windows-only settings for all containers. Not allowed when spec.os.name
	// is linux.
	WindowsOptions *WindowsSecurityContextOptions `json:"windowsOptions,omitempty" protobuf:"bytes,8,opt,name=windowsOptions"`
	// UID the container processes run as; the image's user when unset.
	RunAsUser *int64 `json:"runAsUser,omitempty" protobuf:"varint,2,opt,name=runAsUser"`
	// Primary GID the container processes run as; the runtime's default when
	// unset.
	RunAsGroup *int64 `json:"runAsGroup,omitempty" protobuf:"varint,6,opt,name=runAsGroup"`
	// When true, the kubelet refuses to start a container whose user would be
	// root (UID 0).
	RunAsNonRoot *bool `json:"runAsNonRoot,omitempty" protobuf:"varint,3,opt,name=runAsNonRoot"`
	// Extra GIDs given to the first process of every container, on top of its
	// primary GID and fsGroup.
	SupplementalGroups []int64 `json:"supplementalGroups,omitempty" protobuf:"varint,4,rep,name=supplementalGroups" listType:"atomic"`
	// Whether the image's own group memberships are kept ("Merge", the
	// default) or replaced by supplementalGroups and fsGroup ("Strict").
	SupplementalGroupsPolicy *SupplementalGroupsPolicy `json:"supplementalGroupsPolicy,omitempty" protobuf:"bytes,12,opt,name=supplementalGroupsPolicy"`
	// GID that owns the pod's volumes (for volume types that support it) and
	// that every container gets as a supplemental group. Unset: ownership is
	// left alone.
	FSGroup *int64 `json:"fsGroup,omitempty" protobuf:"varint,5,opt,name=fsGroup"`
	// Namespaced kernel parameters to set for the pod; a runtime that does
	// not support one may fail the pod.
	Sysctls []Sysctl `json:"sysctls,omitempty" protobuf:"bytes,7,rep,name=sysctls" listType:"atomic"`
	// When the kubelet re-applies fsGroup ownership to a volume: "Always"
	// (the default) or "OnRootMismatch".
	FSGroupChangePolicy *PodFSGroupChangePolicy `json:"fsGroupChangePolicy,omitempty" protobuf:"bytes,9,opt,name=fsGroupChangePolicy"`
	// Seccomp filter for all containers.
	SeccompProfile *SeccompProfile `json:"seccompProfile,omitempty" protobuf:"bytes,10,opt,name=seccompProfile"`
	// AppArmor profile for all containers.
	AppArmorProfile *AppArmorProfile `json:"appArmorProfile,omitempty" protobuf:"bytes,11,opt,name=appArmorProfile"`
	// How volumes get the pod's SELinux label: "MountOption" (the default,
	// one mount option) or "Recursive" (relabel every file).
	SELinuxChangePolicy *PodSELinuxChangePolicy `json:"seLinuxChangePolicy,omitempty" protobuf:"bytes,13,opt,name=seLinuxChangePolicy"`
}

// SecurityContext is the security setup of one container; where it and the
// pod's PodSecurityContext both set a field, this one wins.
type SecurityContext struct {
	// Linux capabilities to add to or drop from the runtime's default set.
	Capabilities *Capabilities `json:"capabilities,omitempty" protobuf:"bytes,1,opt,name=capabilities"`
	// Runs the container with nearly all of root's powers on the host.
	// Default false.
	Privileged *bool `json:"privileged,omitempty" protobuf:"varint,2,opt,name=privileged"`
	// SELinux labels for this container; overrides the pod's.
	SELinuxOptions *SELinuxOptions `json:"seLinuxOptions,omitempty" protobuf:"bytes,3,opt,name=seLinuxOptions"`
	// Windows-only settings for this container; overrides the pod's.
	WindowsOptions *WindowsSecurityContextOptions `json:"windowsOptions,omitempty" protobuf:"bytes,10,opt,name=windowsOptions"`
	// UID the container's process runs as; overrides the pod's and the
	// image's.
	RunAsUser *int64 `json:"runAsUser,omitempty" protobuf:"varint,4,opt,name=runAsUser"`
	// Primary GID the container's process runs as; overrides the pod's.
	RunAsGroup *int64 `json:"runAsGroup,omitempty" protobuf:"varint,8,opt,name=runAsGroup"`
	// When true, the kubelet refuses to start the container as root (UID 0).
	RunAsNonRoot *bool `json:"runAsNonRoot,omitempty" protobuf:"varint,5,opt,name=runAsNonRoot"`
	// Mounts the container's root filesystem read-only. Default false.
	ReadOnlyRootFilesystem *bool `json:"readOnlyRootFilesystem,omitempty" protobuf:"varint,6,opt,name=readOnlyRootFilesystem"`
	// Whether a process may gain more privileges than its parent (the
	// no_new_privs flag); always true for privileged containers or ones with
	// CAP_SYS_ADMIN.
	AllowPrivilegeEscalation *bool `json:"allowPrivilegeEscalation,omitempty" protobuf:"varint,7,opt,name=allowPrivilegeEscalation"`
	// How /proc is masked: "Default" (the runtime's usual masking) or
	// "Unmasked".
	ProcMount *ProcMountType `json:"procMount,omitempty" protobuf:"bytes,9,opt,name=procMount"`
	// Seccomp filter for this container; overrides the pod's.
	SeccompProfile *SeccompProfile `json:"seccompProfile,omitempty" protobuf:"bytes,11,opt,name=seccompProfile"`
	// AppArmor profile for this container; overrides the pod's.
	AppArmorProfile *AppArmorProfile `json:"appArmorProfile,omitempty" protobuf:"bytes,12,opt,name=appArmorProfile"`
}

// SELinuxOptions is an SELinux label, given part by part; an empty part
// keeps the runtime's choice.
type SELinuxOptions struct {
	// SELinux user part of the label.
	User string `json:"user,omitempty" protobuf:"bytes,1,opt,name=user"`
	// SELinux role part of the label.
	Role string `json:"role,omitempty" protobuf:"bytes,2,opt,name=role"`
	// SELinux type part of the label.
	Type string `json:"type,omitempty" protobuf:"bytes,3,opt,name=type"`
	// SELinux level (sensitivity and categories) part of the label.
	Level string `json:"level,omitempty" protobuf:"bytes,4,opt,name=level"`
}

// WindowsSecurityContextOptions are the settings that only mean something on
// Windows nodes.
type WindowsSecurityContextOptions struct {
	// Name of the GMSA (group managed service account) credential spec to use.
	GMSACredentialSpecName *string `json:"gmsaCredentialSpecName,omitempty" protobuf:"bytes,1,opt,name=gmsaCredentialSpecName"`
	// Contents of that credential spec, filled in by the GMSA admission
	// webhook.
	GMSACredentialSpec *string `json:"gmsaCredentialSpec,omitempty" protobuf:"bytes,2,opt,name=gmsaCredentialSpec"`
	// Windows user name the entrypoint runs as; the image's user when unset.
	RunAsUserName *string `json:"runAsUserName,omitempty" protobuf:"bytes,3,opt,name=runAsUserName"`
	// Runs the container as a process on the host. All containers of a pod
	// must agree, and the pod must use hostNetwork.
	HostProcess *bool `json:"hostProcess,omitempty" protobuf:"varint,4,opt,name=hostProcess"`
}

// Sysctl is one kernel parameter to set in the pod's namespaces.
type Sysctl struct {
	// Parameter name, such as "net.ipv4.ip_local_port_range".
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Value to write to it.
	Value string `json:"value" protobuf:"bytes,2,opt,name=value"`
}

// SeccompProfile picks the seccomp filter of a pod or container.
type SeccompProfile struct {
	// Kind of profile: "RuntimeDefault", "Unconfined" or "Localhost".
	Type SeccompProfileType `json:"type" protobuf:"bytes,1,opt,name=type"`
	// Path of a profile file, relative to the kubelet's seccomp directory.
	// Required for type Localhost, forbidden otherwise.
	LocalhostProfile *string `json:"localhostProfile,omitempty" protobuf:"bytes,2,opt,name=localhostProfile"`
}

// AppArmorProfile picks the AppArmor profile of a pod or container.
type AppArmorProfile struct {
	// Kind of profile: "RuntimeDefault", "Unconfined" or "Localhost".
	Type AppArmorProfileType `json:"type" protobuf:"bytes,1,opt,name=type"`
	// Name of a profile already loaded on the node. Required for type
	// Localhost, forbidden otherwise.
	LocalhostProfile *string `json:"localhostProfile,omitempty" protobuf:"bytes,2,opt,name=localhostProfile"`
}

// Capabilities are the Linux capabilities to change from the runtime's
// default set.
type Capabilities struct {
	// Capabilities to grant, such as "NET_ADMIN".
	Add []Capability `json:"add,omitempty" protobuf:"bytes,1,rep,name=add" listType:"atomic"`
	// Capabilities to take away; "ALL" drops every one.
	Drop []Capability `json:"drop,omitempty" protobuf:"bytes,2,rep,name=drop" listType:"atomic"`
}

// AppArmorProfileType is the kind of an AppArmor profile: "RuntimeDefault",
// "Unconfined" or "Localhost".
type AppArmorProfileType string

// The AppArmor profile types.
const (
	// AppArmorProfileTypeUnconfined enforces no profile.
	AppArmorProfileTypeUnconfined AppArmorProfileType = "Unconfined"
	// AppArmorProfileTypeRuntimeDefault uses the container runtime's profile.
	AppArmorProfileTypeRuntimeDefault AppArmorProfileType = "RuntimeDefault"
	// AppArmorProfileTypeLocalhost uses a profile loaded on the node.
	AppArmorProfileTypeLocalhost AppArmorProfileType = "Localhost"
)

// Capability is a Linux capability name without the CAP_ prefix, such as
// "NET_BIND_SERVICE".
type Capability string

// PodFSGroupChangePolicy says when the kubelet re-applies fsGroup ownership
// to a volume: "Always" or "OnRootMismatch".
type PodFSGroupChangePolicy string

// The fsGroup change policies.
const (
	// FSGroupChangeOnRootMismatch skips the walk when the volume's root
	// already has the expected owner and mode, which saves time on big volumes.
	FSGroupChangeOnRootMismatch PodFSGroupChangePolicy = "OnRootMismatch"
	// FSGroupChangeAlways changes ownership on every mount; the default.
	FSGroupChangeAlways PodFSGroupChangePolicy = "Always"
)

// PodSELinuxChangePolicy says how volumes get the pod's SELinux label:
// "Recursive" or "MountOption".
type PodSELinuxChangePolicy string

// The SELinux change policies.
const (
	// SELinuxChangePolicyRecursive relabels every file; slow on big volumes,
	// but pods with different labels can share a volume.
	SELinuxChangePolicyRecursive PodSELinuxChangePolicy = "Recursive"
	// SELinuxChangePolicyMountOption labels a volume with one "-o context"
	// mount option where the volume supports it; every pod sharing the volume
	// then needs the same label.
	SELinuxChangePolicyMountOption PodSELinuxChangePolicy = "MountOption"
)

// ProcMountType says how a container's /proc is masked: "Default" or
// "Unmasked".
type ProcMountType string

// The proc mount types.
const (
	// DefaultProcMount keeps the runtime's read-only and masked /proc paths.
	DefaultProcMount ProcMountType = "Default"
	// UnmaskedProcMount leaves /proc with no masking at all.
	UnmaskedProcMount ProcMountType = "Unmasked"
)

// SeccompProfileType is the kind of a seccomp profile: "RuntimeDefault",
// "Unconfined" or "Localhost".
type SeccompProfileType string

// The seccomp profile types.
const (
	// SeccompProfileTypeUnconfined applies no filter.
	SeccompProfileTypeUnconfined SeccompProfileType = "Unconfined"
	// SeccompProfileTypeRuntimeDefault uses the container runtime's filter.
	SeccompProfileTypeRuntimeDefault SeccompProfileType = "RuntimeDefault"
	// SeccompProfileTypeLocalhost uses a profile file on the node.
	SeccompProfileTypeLocalhost SeccompProfileType = "Localhost"
)

// SupplementalGroupsPolicy says whether a container keeps the groups its
// image's /etc/group gives its user: "Merge" or "Strict".
type SupplementalGroupsPolicy string

// The supplemental groups policies.
const (
	// SupplementalGroupsPolicyMerge adds supplementalGroups and fsGroup to the
	// image's groups for the user.
	SupplementalGroupsPolicyMerge SupplementalGroupsPolicy = "Merge"
	// SupplementalGroupsPolicyStrict uses only supplementalGroups and fsGroup,
	// ignoring the image's groups.
	SupplementalGroupsPolicyStrict SupplementalGroupsPolicy = "Strict"
)
