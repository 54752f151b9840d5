package api

// DeepCopy copies a Pod; the copy shares no memory with the original.
func (in *Pod) DeepCopy() *Pod {
	if in == nil {
		return nil
	}
	out := *in
	out.ObjectMeta = *in.ObjectMeta.DeepCopy()
	out.Spec = *in.Spec.DeepCopy()
	out.Status = *in.Status.DeepCopy()
	return &out
}

// DeepCopyObject satisfies Object.
func (in *Pod) DeepCopyObject() Object { return in.DeepCopy() }

// DeepCopy copies a PodSpec.
func (in *PodSpec) DeepCopy() *PodSpec {
	out := *in
	if in.Containers != nil {
		out.Containers = make([]Container, len(in.Containers))
		for i := range in.Containers {
			out.Containers[i] = *in.Containers[i].DeepCopy()
		}
	}
	out.TerminationGracePeriodSeconds = copyPtr(in.TerminationGracePeriodSeconds)
	out.ActiveDeadlineSeconds = copyPtr(in.ActiveDeadlineSeconds)
	out.NodeSelector = copyStringMap(in.NodeSelector)
	out.Affinity = in.Affinity.DeepCopy()
	if in.Tolerations != nil {
		out.Tolerations = make([]Toleration, len(in.Tolerations))
		for i, t := range in.Tolerations {
			t.TolerationSeconds = copyPtr(t.TolerationSeconds)
			out.Tolerations[i] = t
		}
	}
	out.Priority = copyPtr(in.Priority)
	return &out
}

// DeepCopy copies a Container.
func (in *Container) DeepCopy() *Container {
	out := *in
	out.Command = copySlice(in.Command)
	out.Args = copySlice(in.Args)
	out.Ports = copySlice(in.Ports)
	out.Env = copySlice(in.Env)
	out.Resources = ResourceRequirements{
		Limits:   in.Resources.Limits.DeepCopy(),
		Requests: in.Resources.Requests.DeepCopy(),
	}
	return &out
}

// DeepCopy copies an Affinity, nil-safe.
func (in *Affinity) DeepCopy() *Affinity {
	if in == nil {
		return nil
	}
	out := *in
	if in.NodeAffinity != nil {
		na := *in.NodeAffinity
		na.RequiredDuringSchedulingIgnoredDuringExecution = in.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.DeepCopy()
		out.NodeAffinity = &na
	}
	return &out
}

// DeepCopy copies a NodeSelector, nil-safe.
func (in *NodeSelector) DeepCopy() *NodeSelector {
	if in == nil {
		return nil
	}
	out := *in
	if in.NodeSelectorTerms != nil {
		out.NodeSelectorTerms = make([]NodeSelectorTerm, len(in.NodeSelectorTerms))
		for i, t := range in.NodeSelectorTerms {
			out.NodeSelectorTerms[i] = NodeSelectorTerm{
				MatchExpressions: copyNodeSelectorRequirements(t.MatchExpressions),
				MatchFields:      copyNodeSelectorRequirements(t.MatchFields),
			}
		}
	}
	return &out
}

func copyNodeSelectorRequirements(in []NodeSelectorRequirement) []NodeSelectorRequirement {
	if in == nil {
		return nil
	}
	out := make([]NodeSelectorRequirement, len(in))
	for i, r := range in {
		r.Values = copySlice(r.Values)
		out[i] = r
	}
	return out
}

// DeepCopy copies a PodStatus.
func (in *PodStatus) DeepCopy() *PodStatus {
	out := *in
	out.Conditions = copySlice(in.Conditions)
	out.PodIPs = copySlice(in.PodIPs)
	out.StartTime = in.StartTime.DeepCopy()
	if in.ContainerStatuses != nil {
		out.ContainerStatuses = make([]ContainerStatus, len(in.ContainerStatuses))
		for i := range in.ContainerStatuses {
			out.ContainerStatuses[i] = *in.ContainerStatuses[i].DeepCopy()
		}
	}
	return &out
}

// DeepCopy copies a ContainerStatus.
func (in *ContainerStatus) DeepCopy() *ContainerStatus {
	out := *in
	out.State = *in.State.DeepCopy()
	out.LastTerminationState = *in.LastTerminationState.DeepCopy()
	out.Started = copyPtr(in.Started)
	return &out
}

// DeepCopy copies a ContainerState.
func (in *ContainerState) DeepCopy() *ContainerState {
	return &ContainerState{
		Waiting:    copyPtr(in.Waiting),
		Running:    copyPtr(in.Running),
		Terminated: copyPtr(in.Terminated),
	}
}

// copyPtr copies the value behind a pointer to a type without references
// of its own (numbers, strings, flat structs), nil-safe.
func copyPtr[T any](in *T) *T {
	if in == nil {
		return nil
	}
	v := *in
	return &v
}

// copySlice copies a slice of values without references of their own.
func copySlice[T any](in []T) []T {
	if in == nil {
		return nil
	}
	return append(make([]T, 0, len(in)), in...)
}
