package admission

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"kubeloop/api"
)

// The enumerations a pod spec may use, in the order Kubernetes lists them
// in its "supported values" messages. They are functions, not package
// variables, so that no rule can change another's list.
func supportedRestartPolicies() []api.RestartPolicy {
	return []api.RestartPolicy{api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever}
}
func supportedDNSPolicies() []string {
	return []string{"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}
}
func supportedPullPolicies() []api.PullPolicy {
	return []api.PullPolicy{api.PullAlways, api.PullIfNotPresent, api.PullNever}
}
func supportedMessagePolicies() []string { return []string{"File", "FallbackToLogsOnError"} }
func supportedProtocols() []api.Protocol {
	return []api.Protocol{api.ProtocolSCTP, api.ProtocolTCP, api.ProtocolUDP}
}
func supportedTaintEffects() []api.TaintEffect {
	return []api.TaintEffect{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute}
}
func supportedTolerationOps() []api.TolerationOperator {
	return []api.TolerationOperator{api.TolerationOpEqual, api.TolerationOpExists}
}

// validatePod is ValidatePodCreate, reduced to the fields kubeloop models.
func validatePod(pod *api.Pod, namespaced bool) errorList {
	errs := validateObjectMeta(&pod.ObjectMeta, namespaced, api.NameIsDNSSubdomain, newPath("metadata"))
	return append(errs, validatePodSpec(&pod.Spec, newPath("spec"))...)
}

// validatePodUpdate is ValidatePodUpdate: a running pod's spec is fixed,
// because the kubelet has already acted on it. What may change is what the
// kubelet can apply in place: container and init container images,
// activeDeadlineSeconds (set, or lowered, never removed), tolerations
// (only added) and a negative terminationGracePeriodSeconds (raised to 1).
// Kubernetes: pkg/apis/core/validation/validation.go (ValidatePodUpdate),
// v1.37.2; it also allows in-place resource resizes, which we do not.
func validatePodUpdate(pod, old *api.Pod) errorList {
	errs := validateObjectMetaUpdate(&pod.ObjectMeta, &old.ObjectMeta, newPath("metadata"))
	errs = append(errs, validatePodSpec(&pod.Spec, newPath("spec"))...)
	if len(errs) > 0 {
		return errs
	}
	spec := newPath("spec")
	if newDeadline, oldDeadline := pod.Spec.ActiveDeadlineSeconds, old.Spec.ActiveDeadlineSeconds; oldDeadline != nil {
		switch {
		case newDeadline == nil:
			errs = append(errs, invalid(spec.Child("activeDeadlineSeconds"), "null", "must not update from a positive integer to nil value"))
		case *newDeadline > *oldDeadline:
			errs = append(errs, invalid(spec.Child("activeDeadlineSeconds"), *newDeadline, "must be less than or equal to previous value"))
		}
	}
	mutable := *old.Spec.DeepCopy()
	if len(mutable.Containers) == len(pod.Spec.Containers) {
		for i := range mutable.Containers {
			mutable.Containers[i].Image = pod.Spec.Containers[i].Image
		}
	}
	if len(mutable.InitContainers) == len(pod.Spec.InitContainers) {
		for i := range mutable.InitContainers {
			mutable.InitContainers[i].Image = pod.Spec.InitContainers[i].Image
		}
	}
	mutable.ActiveDeadlineSeconds = pod.Spec.ActiveDeadlineSeconds
	if tolerationsOnlyAdded(old.Spec.Tolerations, pod.Spec.Tolerations) {
		mutable.Tolerations = pod.Spec.Tolerations
	}
	if g := old.Spec.TerminationGracePeriodSeconds; g != nil && *g < 0 && pod.Spec.TerminationGracePeriodSeconds != nil && *pod.Spec.TerminationGracePeriodSeconds == 1 {
		mutable.TerminationGracePeriodSeconds = pod.Spec.TerminationGracePeriodSeconds
	}
	if !semanticallyEqual(mutable, pod.Spec) {
		errs = append(errs, forbidden(spec, "pod updates may not change fields other than `spec.containers[*].image`,"+
			"`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),"+
			"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"))
	}
	return errs
}

// tolerationsOnlyAdded: every old toleration is still there.
func tolerationsOnlyAdded(old, updated []api.Toleration) bool {
	for _, o := range old {
		if !slices.ContainsFunc(updated, func(n api.Toleration) bool { return semanticallyEqual(o, n) }) {
			return false
		}
	}
	return true
}

// validatePodSpec is ValidatePodSpec; templates use it with their own path
// ("spec.template.spec").
func validatePodSpec(spec *api.PodSpec, p fieldPath) errorList {
	errs := validateContainers(spec.Containers, p.Child("containers"))
	switch {
	case spec.RestartPolicy == "":
		errs = append(errs, required(p.Child("restartPolicy"), ""))
	case !slices.Contains(supportedRestartPolicies(), spec.RestartPolicy):
		errs = append(errs, notSupported(p.Child("restartPolicy"), spec.RestartPolicy, supportedRestartPolicies()))
	}
	switch {
	case spec.DNSPolicy == "":
		errs = append(errs, required(p.Child("dnsPolicy"), ""))
	case !slices.Contains(supportedDNSPolicies(), spec.DNSPolicy):
		errs = append(errs, notSupported(p.Child("dnsPolicy"), spec.DNSPolicy, supportedDNSPolicies()))
	}
	if g := spec.TerminationGracePeriodSeconds; g != nil {
		errs = append(errs, validateNonnegative(*g, p.Child("terminationGracePeriodSeconds"))...)
	}
	if d := spec.ActiveDeadlineSeconds; d != nil && (*d < 1 || *d > math.MaxInt32) {
		errs = append(errs, invalid(p.Child("activeDeadlineSeconds"), *d,
			fmt.Sprintf("must be between 1 and %d, inclusive", math.MaxInt32)))
	}
	errs = append(errs, validateLabels(spec.NodeSelector, p.Child("nodeSelector"))...)
	for _, name := range []struct{ field, value string }{
		{"nodeName", spec.NodeName}, {"schedulerName", spec.SchedulerName}, {"serviceAccountName", spec.ServiceAccountName},
	} {
		if name.value == "" {
			continue
		}
		for _, msg := range api.IsDNS1123Subdomain(name.value) {
			errs = append(errs, invalid(p.Child(name.field), name.value, msg))
		}
	}
	return append(errs, validateTolerations(spec.Tolerations, p.Child("tolerations"))...)
}

func validateContainers(containers []api.Container, p fieldPath) errorList {
	if len(containers) == 0 {
		return errorList{required(p, "")}
	}
	var errs errorList
	names := map[string]bool{}
	for i := range containers {
		c := &containers[i]
		cp := p.Index(i)
		switch {
		case c.Name == "":
			errs = append(errs, required(cp.Child("name"), ""))
		case names[c.Name]:
			errs = append(errs, duplicate(cp.Child("name"), c.Name))
		default:
			for _, msg := range api.IsDNS1123Label(c.Name) {
				errs = append(errs, invalid(cp.Child("name"), c.Name, msg))
			}
		}
		names[c.Name] = true
		if c.Image == "" {
			errs = append(errs, required(cp.Child("image"), ""))
		} else if strings.TrimSpace(c.Image) != c.Image {
			errs = append(errs, invalid(cp.Child("image"), c.Image, "must not have leading or trailing whitespace"))
		}
		switch {
		case c.ImagePullPolicy == "":
			errs = append(errs, required(cp.Child("imagePullPolicy"), ""))
		case !slices.Contains(supportedPullPolicies(), c.ImagePullPolicy):
			errs = append(errs, notSupported(cp.Child("imagePullPolicy"), c.ImagePullPolicy, supportedPullPolicies()))
		}
		switch {
		case c.TerminationMessagePolicy == "":
			errs = append(errs, required(cp.Child("terminationMessagePolicy"), ""))
		case !slices.Contains(supportedMessagePolicies(), c.TerminationMessagePolicy):
			errs = append(errs, notSupported(cp.Child("terminationMessagePolicy"), c.TerminationMessagePolicy, supportedMessagePolicies()))
		}
		for j, env := range c.Env {
			if env.Name == "" {
				errs = append(errs, required(cp.Child("env").Index(j).Child("name"), ""))
			}
		}
		errs = append(errs, validatePorts(c.Ports, cp.Child("ports"))...)
		errs = append(errs, validateResources(&c.Resources, cp.Child("resources"))...)
	}
	return errs
}

const portRangeMsg = "must be between 1 and 65535, inclusive"

func validatePorts(ports []api.ContainerPort, p fieldPath) errorList {
	var errs errorList
	names := map[string]bool{}
	for i, port := range ports {
		pp := p.Index(i)
		if port.Name != "" {
			for _, msg := range isValidPortName(port.Name) {
				errs = append(errs, invalid(pp.Child("name"), port.Name, msg))
			}
			if names[port.Name] {
				errs = append(errs, duplicate(pp.Child("name"), port.Name))
			}
			names[port.Name] = true
		}
		if port.ContainerPort == 0 {
			errs = append(errs, required(pp.Child("containerPort"), ""))
		} else if port.ContainerPort < 1 || port.ContainerPort > 65535 {
			errs = append(errs, invalid(pp.Child("containerPort"), port.ContainerPort, portRangeMsg))
		}
		if port.HostPort != 0 && (port.HostPort < 1 || port.HostPort > 65535) {
			errs = append(errs, invalid(pp.Child("hostPort"), port.HostPort, portRangeMsg))
		}
		switch {
		case port.Protocol == "":
			errs = append(errs, required(pp.Child("protocol"), ""))
		case !slices.Contains(supportedProtocols(), port.Protocol):
			errs = append(errs, notSupported(pp.Child("protocol"), port.Protocol, supportedProtocols()))
		}
	}
	return errs
}

// isValidPortName is IsValidPortName: an IANA service name, which Services
// refer to by name, so it must be short and unambiguous.
func isValidPortName(name string) []string {
	var errs []string
	if len(name) > 15 {
		errs = append(errs, "must be no more than 15 characters")
	}
	letter := false
	for _, c := range name {
		switch {
		case c >= 'a' && c <= 'z':
			letter = true
		case c >= '0' && c <= '9', c == '-':
		default:
			errs = append(errs, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
			return errs
		}
	}
	if strings.Contains(name, "--") {
		errs = append(errs, "must not contain consecutive hyphens")
	}
	if !letter {
		errs = append(errs, "must contain at least one letter (a-z)")
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
		errs = append(errs, "must not begin or end with a hyphen")
	}
	return errs
}

// validateResources: every amount parses and is not negative, names are
// resources a container can ask for, and no request exceeds its limit (the
// scheduler reserves requests; a request above the limit could never be used).
func validateResources(r *api.ResourceRequirements, p fieldPath) errorList {
	var errs errorList
	for _, part := range []struct {
		name string
		list api.ResourceList
	}{{"limits", r.Limits}, {"requests", r.Requests}} {
		for _, name := range sortedKeys(toStringKeys(part.list)) {
			q := part.list[api.ResourceName(name)]
			qp := p.Child(part.name).Key(name)
			if !isContainerResourceName(name) {
				errs = append(errs, invalid(qp, name, "must be a standard resource for containers"))
			}
			if _, err := api.ParseQuantity(string(q)); err != nil {
				errs = append(errs, invalid(qp, q.String(), "must be a valid quantity"))
				continue
			}
			if strings.HasPrefix(string(q), "-") {
				errs = append(errs, invalid(qp, q.String(), isNegativeErrorMsg))
			}
		}
	}
	for _, name := range sortedKeys(toStringKeys(r.Requests)) {
		req := r.Requests[api.ResourceName(name)]
		limit, ok := r.Limits[api.ResourceName(name)]
		if !ok {
			continue
		}
		if c, ok := compareQuantities(req, limit); ok && c > 0 {
			errs = append(errs, invalid(p.Child("requests").Key(name), req.String(),
				fmt.Sprintf("must be less than or equal to %s limit of %s", name, limit)))
		}
	}
	return errs
}

func isContainerResourceName(name string) bool {
	switch api.ResourceName(name) {
	case api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage:
		return true
	}
	// hugepages-2Mi and extended resources ("example.com/gpu") are allowed.
	return strings.HasPrefix(name, "hugepages-") || (strings.Contains(name, "/") && len(api.IsQualifiedName(name)) == 0)
}

// compareQuantities orders two quantities, in thousandths when that fits in
// an int64 and in whole units otherwise; ok is false if either is unparsable.
func compareQuantities(a, b api.Quantity) (c int, ok bool) {
	am, errA := a.MilliValue()
	bm, errB := b.MilliValue()
	if errA != nil || errB != nil {
		var errC, errD error
		am, errC = a.Value()
		bm, errD = b.Value()
		if errC != nil || errD != nil {
			return 0, false
		}
	}
	switch {
	case am < bm:
		return -1, true
	case am > bm:
		return 1, true
	}
	return 0, true
}

func toStringKeys(l api.ResourceList) map[string]api.Quantity {
	m := make(map[string]api.Quantity, len(l))
	for k, v := range l {
		m[string(k)] = v
	}
	return m
}

// validateTolerations checks the operator/value/effect combinations the
// scheduler's toleration matching relies on.
func validateTolerations(tolerations []api.Toleration, p fieldPath) errorList {
	var errs errorList
	for i, t := range tolerations {
		tp := p.Index(i)
		if t.Key != "" {
			for _, msg := range api.IsQualifiedName(t.Key) {
				errs = append(errs, invalid(tp.Child("key"), t.Key, msg))
			}
		} else if t.Operator != api.TolerationOpExists {
			errs = append(errs, invalid(tp.Child("operator"), t.Operator,
				"operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		switch t.Operator {
		case "", api.TolerationOpEqual:
			for _, msg := range api.IsValidLabelValue(t.Value) {
				errs = append(errs, invalid(tp.Child("value"), t.Value, msg))
			}
		case api.TolerationOpExists:
			if t.Value != "" {
				errs = append(errs, invalid(tp.Child("operator"), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		default:
			errs = append(errs, notSupported(tp.Child("operator"), t.Operator, supportedTolerationOps()))
		}
		if t.TolerationSeconds != nil && t.Effect != api.TaintEffectNoExecute {
			errs = append(errs, invalid(tp.Child("effect"), t.Effect,
				"effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		if t.Effect != "" && !slices.Contains(supportedTaintEffects(), t.Effect) {
			errs = append(errs, notSupported(tp.Child("effect"), t.Effect, supportedTaintEffects()))
		}
	}
	return errs
}
