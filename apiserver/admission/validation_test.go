package admission

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// validationCase is one rule, passing or failing: build the request, and
// either want no error or exactly these causes (and, if set, this message
// on the first cause).
type validationCase struct {
	name  string
	attrs func(t *testing.T) *Attributes
	want  []cause
	msg   string
}

func runValidationCases(t *testing.T, kind string, cases []validationCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := NewValidation().Validate(context.Background(), tc.attrs(t))
			if tc.want == nil {
				require.NoError(t, err)
				return
			}
			causes := requireInvalid(t, err, kind, tc.want...)
			if tc.msg != "" {
				require.Equal(t, tc.msg, causes[0].Message)
			}
		})
	}
}

const (
	required_     = api.CauseTypeFieldValueRequired
	invalid_      = api.CauseTypeFieldValueInvalid
	duplicate_    = api.CauseTypeFieldValueDuplicate
	forbidden_    = api.CauseTypeFieldValueForbidden
	notSupported_ = api.CauseTypeFieldValueNotSupported
	tooLong_      = api.CauseTypeFieldValueTooLong
)

// podCase builds a pod create from a defaulted valid pod changed by edit.
func podCase(name string, edit func(*api.Pod), msg string, want ...cause) validationCase {
	return validationCase{name: name, want: want, msg: msg, attrs: func(t *testing.T) *Attributes {
		pod := defaulted(t, validPod())
		edit(pod)
		return createAttrs(t, "", "Pod", pod)
	}}
}

func TestValidatePodCreate(t *testing.T) {
	c0 := "spec.containers[0]"
	runValidationCases(t, "Pod", []validationCase{
		podCase("valid", func(*api.Pod) {}, ""),
		podCase("name not a subdomain", func(p *api.Pod) { p.Name = "Bad_Name" },
			`Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			cause{invalid_, "metadata.name"}),
		podCase("name may be a subdomain with dots", func(p *api.Pod) { p.Name = "web.v1" }, ""),
		podCase("name or generateName required", func(p *api.Pod) { p.Name = "" },
			"Required value: name or generateName is required", cause{required_, "metadata.name"}),
		podCase("generateName alone is enough", func(p *api.Pod) { p.Name, p.GenerateName = "", "web-" }, ""),
		podCase("generateName prefix invalid", func(p *api.Pod) { p.GenerateName = "Web-" }, "",
			cause{invalid_, "metadata.generateName"}),
		podCase("namespace required", func(p *api.Pod) { p.Namespace = "" }, "Required value",
			cause{required_, "metadata.namespace"}),
		podCase("label key invalid", func(p *api.Pod) { p.Labels["bad key"] = "x" }, "",
			cause{invalid_, "metadata.labels"}),
		podCase("label value invalid", func(p *api.Pod) { p.Labels["app"] = "-web" }, "",
			cause{invalid_, "metadata.labels"}),
		podCase("annotation key invalid", func(p *api.Pod) { p.Annotations = map[string]string{"a/b/c": "x"} }, "",
			cause{invalid_, "metadata.annotations"}),
		podCase("annotation keys are case-insensitive", func(p *api.Pod) { p.Annotations = map[string]string{"Example.COM/Key": "x"} }, ""),
		podCase("annotations too large", func(p *api.Pod) {
			p.Annotations = map[string]string{"big": strings.Repeat("x", 256*1024)}
		}, "Too long: must have at most 262144 bytes", cause{tooLong_, "metadata.annotations"}),
		podCase("owner reference fields required", func(p *api.Pod) { p.OwnerReferences = []api.OwnerReference{{}} },
			`Invalid value: "": version must not be empty`,
			cause{invalid_, "metadata.ownerReferences.apiVersion"}, cause{invalid_, "metadata.ownerReferences.kind"},
			cause{invalid_, "metadata.ownerReferences.name"}, cause{invalid_, "metadata.ownerReferences.uid"}),
		podCase("at most one controller", func(p *api.Pod) {
			p.OwnerReferences = []api.OwnerReference{
				{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "a", UID: "1", Controller: ptr(true)},
				{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "b", UID: "2", Controller: ptr(true)},
			}
		}, "", cause{invalid_, "metadata.ownerReferences"}),
		podCase("finalizers qualified or standard", func(p *api.Pod) { p.Finalizers = []string{"example.com/x", "kubernetes", "cleanup"} },
			`Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified`,
			cause{invalid_, "metadata.finalizers[2]"}),
		podCase("finalizer syntax", func(p *api.Pod) { p.Finalizers = []string{"example.com/bad name"} }, "",
			cause{invalid_, "metadata.finalizers"}),
		podCase("containers required", func(p *api.Pod) { p.Spec.Containers = nil }, "Required value",
			cause{required_, "spec.containers"}),
		podCase("container names unique", func(p *api.Pod) {
			p.Spec.Containers = append(p.Spec.Containers, p.Spec.Containers[0])
			p.Spec.Containers[1].Ports = nil
		}, `Duplicate value: "c1"`, cause{duplicate_, "spec.containers[1].name"}),
		podCase("container name a DNS label", func(p *api.Pod) { p.Spec.Containers[0].Name = "c.1" }, `Invalid value: "c.1": must not contain dots`,
			cause{invalid_, c0 + ".name"}),
		podCase("container name required", func(p *api.Pod) { p.Spec.Containers[0].Name = "" }, "",
			cause{required_, c0 + ".name"}),
		podCase("image required", func(p *api.Pod) { p.Spec.Containers[0].Image = "" }, "Required value",
			cause{required_, c0 + ".image"}),
		podCase("restartPolicy supported", func(p *api.Pod) { p.Spec.RestartPolicy = "Sometimes" },
			`Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`,
			cause{notSupported_, "spec.restartPolicy"}),
		podCase("quantity parses", func(p *api.Pod) { p.Spec.Containers[0].Resources.Limits[api.ResourceMemory] = "lots" }, "",
			cause{invalid_, c0 + ".resources.limits[memory]"}),
		podCase("resource name known", func(p *api.Pod) { p.Spec.Containers[0].Resources.Limits["gpu"] = "1" },
			`Invalid value: "gpu": must be a standard resource for containers`,
			cause{invalid_, c0 + ".resources.limits[gpu]"}),
		podCase("extended resource allowed", func(p *api.Pod) { p.Spec.Containers[0].Resources.Limits["example.com/gpu"] = "1" }, ""),
		podCase("request not above limit", func(p *api.Pod) { p.Spec.Containers[0].Resources.Requests[api.ResourceCPU] = "1500m" },
			`Invalid value: "1500m": must be less than or equal to cpu limit of 1`,
			cause{invalid_, c0 + ".resources.requests[cpu]"}),
		podCase("request equal to limit", func(p *api.Pod) { p.Spec.Containers[0].Resources.Requests[api.ResourceCPU] = "1000m" }, ""),
		podCase("container port in range", func(p *api.Pod) { p.Spec.Containers[0].Ports[0].ContainerPort = 70000 },
			"Invalid value: 70000: must be between 1 and 65535, inclusive", cause{invalid_, c0 + ".ports[0].containerPort"}),
		podCase("container port required", func(p *api.Pod) { p.Spec.Containers[0].Ports[0].ContainerPort = 0 }, "",
			cause{required_, c0 + ".ports[0].containerPort"}),
		podCase("host port in range", func(p *api.Pod) { p.Spec.Containers[0].Ports[0].HostPort = -1 }, "",
			cause{invalid_, c0 + ".ports[0].hostPort"}),
		podCase("port protocol supported", func(p *api.Pod) { p.Spec.Containers[0].Ports[0].Protocol = "ICMP" },
			`Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"`, cause{notSupported_, c0 + ".ports[0].protocol"}),
		podCase("port names unique", func(p *api.Pod) {
			p.Spec.Containers[0].Ports = append(p.Spec.Containers[0].Ports, api.ContainerPort{Name: "http", ContainerPort: 81, Protocol: "TCP"})
		}, "", cause{duplicate_, c0 + ".ports[1].name"}),
		podCase("terminationGracePeriodSeconds not negative", func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = ptr(int64(-1)) },
			"Invalid value: -1: must be greater than or equal to 0", cause{invalid_, "spec.terminationGracePeriodSeconds"}),
		podCase("nodeName a subdomain", func(p *api.Pod) { p.Spec.NodeName = "Node_1" }, "",
			cause{invalid_, "spec.nodeName"}),
		podCase("toleration effect supported", func(p *api.Pod) {
			p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: api.TolerationOpExists, Effect: "Sometimes"}}
		}, "", cause{notSupported_, "spec.tolerations[0].effect"}),
		podCase("many problems reported at once", func(p *api.Pod) {
			p.Name = "Bad_Name"
			p.Spec.Containers[0].Image = ""
			p.Spec.RestartPolicy = "Sometimes"
		}, "", cause{invalid_, "metadata.name"}, cause{required_, c0 + ".image"}, cause{notSupported_, "spec.restartPolicy"}),
	})
}

func TestValidatePodUpdate(t *testing.T) {
	stored := func(t *testing.T) *api.Pod {
		p := defaulted(t, validPod())
		p.UID, p.ResourceVersion, p.CreationTimestamp = "u-1", "5", api.Now()
		return p
	}
	update := func(name string, edit func(*api.Pod), msg string, want ...cause) validationCase {
		return validationCase{name: name, want: want, msg: msg, attrs: func(t *testing.T) *Attributes {
			old := stored(t)
			pod := old.DeepCopy()
			edit(pod)
			return updateAttrs(t, "", "Pod", pod, old)
		}}
	}
	runValidationCases(t, "Pod", []validationCase{
		update("labels may change", func(p *api.Pod) { p.Labels["tier"] = "fe" }, ""),
		update("image may change", func(p *api.Pod) { p.Spec.Containers[0].Image = "nginx:1.28" }, ""),
		update("activeDeadlineSeconds may be set", func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = ptrTo[int64](600) }, ""),
		update("tolerations may be added", func(p *api.Pod) {
			p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Key: "k", Operator: api.TolerationOpExists})
		}, ""),
		{name: "activeDeadlineSeconds may be lowered, not raised", want: []cause{{invalid_, "spec.activeDeadlineSeconds"}},
			msg: "Invalid value: 61: must be less than or equal to previous value",
			attrs: func(t *testing.T) *Attributes {
				old := stored(t)
				old.Spec.ActiveDeadlineSeconds = ptrTo[int64](60)
				pod := old.DeepCopy()
				pod.Spec.ActiveDeadlineSeconds = ptrTo[int64](61)
				return updateAttrs(t, "", "Pod", pod, old)
			}},
		update("other spec fields may not", func(p *api.Pod) { p.Spec.RestartPolicy = api.RestartPolicyNever },
			"Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,"+
				"`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),"+
				"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)", cause{forbidden_, "spec"}),
		update("containers may not be added", func(p *api.Pod) {
			p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "c2", Image: "busybox",
				ImagePullPolicy: api.PullAlways, TerminationMessagePolicy: "File"})
		}, "", cause{forbidden_, "spec"}),
		update("name immutable", func(p *api.Pod) { p.Name = "web-2" }, `Invalid value: "web-2": field is immutable`,
			cause{invalid_, "metadata.name"}),
		update("namespace immutable", func(p *api.Pod) { p.Namespace = "ns2" }, "", cause{invalid_, "metadata.namespace"}),
		update("uid immutable", func(p *api.Pod) { p.UID = "u-2" }, "", cause{invalid_, "metadata.uid"}),
		update("creationTimestamp immutable", func(p *api.Pod) {
			p.CreationTimestamp = api.NewTime(p.CreationTimestamp.Add(-3600e9))
		}, "", cause{invalid_, "metadata.creationTimestamp"}),
		update("new spec still validated", func(p *api.Pod) { p.Spec.Containers[0].Image = "" }, "",
			cause{required_, "spec.containers[0].image"}),
		{name: "no new finalizers while deleting", want: []cause{{forbidden_, "metadata.finalizers"}},
			msg: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/late"}`,
			attrs: func(t *testing.T) *Attributes {
				old := stored(t)
				now := api.Now()
				old.DeletionTimestamp, old.Finalizers = &now, []string{"example.com/early"}
				pod := old.DeepCopy()
				pod.Finalizers = []string{"example.com/early", "example.com/late"}
				return updateAttrs(t, "", "Pod", pod, old)
			}},
		{name: "status writes do not check the spec rules", attrs: func(t *testing.T) *Attributes {
			old := stored(t)
			pod := old.DeepCopy()
			pod.Spec.RestartPolicy = api.RestartPolicyNever
			pod.Status.Phase = api.PodRunning
			a := updateAttrs(t, "", "Pod", pod, old)
			a.Subresource = "status"
			return a
		}},
	})
}

func rsCase(name string, edit func(*api.ReplicaSet), msg string, want ...cause) validationCase {
	return validationCase{name: name, want: want, msg: msg, attrs: func(t *testing.T) *Attributes {
		rs := defaulted(t, validReplicaSet())
		edit(rs)
		return createAttrs(t, "apps", "ReplicaSet", rs)
	}}
}

func TestValidateReplicaSetCreate(t *testing.T) {
	tmpl := "spec.template"
	runValidationCases(t, "ReplicaSet", []validationCase{
		rsCase("valid", func(*api.ReplicaSet) {}, ""),
		rsCase("zero replicas", func(rs *api.ReplicaSet) { rs.Spec.Replicas = ptr(int32(0)) }, ""),
		rsCase("replicas not negative", func(rs *api.ReplicaSet) { rs.Spec.Replicas = ptr(int32(-1)) },
			"Invalid value: -1: must be greater than or equal to 0", cause{invalid_, "spec.replicas"}),
		rsCase("minReadySeconds not negative", func(rs *api.ReplicaSet) { rs.Spec.MinReadySeconds = -5 }, "",
			cause{invalid_, "spec.minReadySeconds"}),
		// Like Kubernetes, a missing selector also fails to match the template.
		rsCase("selector required", func(rs *api.ReplicaSet) { rs.Spec.Selector = nil }, "Required value",
			cause{required_, "spec.selector"}, cause{invalid_, tmpl + ".metadata.labels"}),
		rsCase("selector not empty", func(rs *api.ReplicaSet) { rs.Spec.Selector = &api.LabelSelector{} },
			`Invalid value: "": empty selector is invalid for deployment`, cause{invalid_, "spec.selector"}),
		rsCase("selector matches template labels", func(rs *api.ReplicaSet) { rs.Spec.Selector.MatchLabels["app"] = "db" },
			"Invalid value: {\"app\":\"web\",\"tier\":\"fe\"}: `selector` does not match template `labels`",
			cause{invalid_, tmpl + ".metadata.labels"}),
		rsCase("selector expressions match template", func(rs *api.ReplicaSet) {
			rs.Spec.Selector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
				{Key: "tier", Operator: api.LabelSelectorOpIn, Values: []string{"fe", "be"}}}}
		}, ""),
		rsCase("selector operator valid", func(rs *api.ReplicaSet) {
			rs.Spec.Selector.MatchExpressions = []api.LabelSelectorRequirement{{Key: "tier", Operator: "Near"}}
		}, "", cause{invalid_, "spec.selector.matchExpressions[0].operator"}, cause{invalid_, "spec.selector"}),
		rsCase("selector label value valid", func(rs *api.ReplicaSet) { rs.Spec.Selector.MatchLabels["app"] = "not valid" }, "",
			cause{invalid_, "spec.selector.matchLabels"}, cause{invalid_, "spec.selector"}),
		rsCase("template pod spec validated with its path", func(rs *api.ReplicaSet) { rs.Spec.Template.Spec.Containers[0].Image = "" },
			"Required value", cause{required_, tmpl + ".spec.containers[0].image"}),
		rsCase("template restartPolicy Always", func(rs *api.ReplicaSet) { rs.Spec.Template.Spec.RestartPolicy = api.RestartPolicyNever },
			`Unsupported value: "Never": supported values: "Always"`, cause{notSupported_, tmpl + ".spec.restartPolicy"}),
		rsCase("template labels valid", func(rs *api.ReplicaSet) { rs.Spec.Template.Labels["bad key"] = "x" }, "",
			cause{invalid_, tmpl + ".metadata.labels"}),
	})
}

func TestValidateReplicaSetUpdateAndScale(t *testing.T) {
	stored := func(t *testing.T) *api.ReplicaSet {
		rs := defaulted(t, validReplicaSet())
		rs.UID, rs.ResourceVersion, rs.CreationTimestamp = "u-1", "5", api.Now()
		return rs
	}
	update := func(name string, edit func(*api.ReplicaSet), msg string, want ...cause) validationCase {
		return validationCase{name: name, want: want, msg: msg, attrs: func(t *testing.T) *Attributes {
			old := stored(t)
			rs := old.DeepCopyObject().(*api.ReplicaSet)
			edit(rs)
			return updateAttrs(t, "apps", "ReplicaSet", rs, old)
		}}
	}
	runValidationCases(t, "ReplicaSet", []validationCase{
		update("replicas may change", func(rs *api.ReplicaSet) { rs.Spec.Replicas = ptr(int32(5)) }, ""),
		update("template may change", func(rs *api.ReplicaSet) { rs.Spec.Template.Spec.Containers[0].Image = "nginx:2" }, ""),
		update("selector immutable", func(rs *api.ReplicaSet) { rs.Spec.Selector.MatchLabels = map[string]string{"tier": "fe"} },
			`Invalid value: "tier=fe": field is immutable`, cause{invalid_, "spec.selector"}),
		update("replicas still not negative", func(rs *api.ReplicaSet) { rs.Spec.Replicas = ptr(int32(-2)) }, "",
			cause{invalid_, "spec.replicas"}),
	})
	scale := func(name string, replicas int32, want ...cause) validationCase {
		return validationCase{name: name, want: want, attrs: func(t *testing.T) *Attributes {
			old := api.NewScale()
			old.Name, old.Namespace, old.Spec.Replicas = "web", "ns1", 3
			s := old.DeepCopy()
			s.Spec.Replicas = replicas
			a := updateAttrs(t, "apps", "ReplicaSet", s, old)
			a.Subresource = "scale"
			return a
		}}
	}
	// The apiserver may also hand over the parent with the new replicas;
	// the 422 still names the Scale, as Kubernetes' does.
	parent := func(name string, replicas int32, want ...cause) validationCase {
		return validationCase{name: name, want: want, attrs: func(t *testing.T) *Attributes {
			old := stored(t)
			rs := old.DeepCopyObject().(*api.ReplicaSet)
			rs.Spec.Replicas = ptr(replicas)
			a := updateAttrs(t, "apps", "ReplicaSet", rs, old)
			a.Subresource = "scale"
			return a
		}}
	}
	runValidationCases(t, "Scale", []validationCase{
		scale("scale to zero", 0),
		scale("scale not negative", -1, cause{invalid_, "spec.replicas"}),
		parent("parent scaled to zero", 0),
		parent("parent scaled below zero", -1, cause{invalid_, "spec.replicas"}),
	})
}
