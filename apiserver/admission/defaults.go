package admission

import (
	"context"
	"strings"

	"kubeloop/api"
)

// Defaulting fills the fields a client may leave out with the values
// Kubernetes gives them, so every stored object is complete and every reader
// (controllers, kubelets, kubectl get -o yaml) sees the same thing Kubernetes
// would show. It is idempotent: defaulting a defaulted object changes nothing.
//
// Kubernetes does this while decoding a request (the SetDefaults_* functions
// of pkg/apis/core/v1/defaults.go and pkg/apis/apps/v1/defaults.go run as
// part of conversion), before any admission plugin. We have no conversion
// step, so defaulting is the first mutating plugin after NamespaceLifecycle;
// the result is the same object.
type Defaulting struct{}

var _ MutationInterface = Defaulting{}

// NewDefaulting returns the defaulting plugin.
func NewDefaulting() Defaulting { return Defaulting{} }

// Admit defaults the object of a create or update, by kind.
func (Defaulting) Admit(_ context.Context, a *Attributes) error {
	if a.Operation == Delete || a.Object == nil {
		return nil
	}
	if a.Operation == Update && a.OldObject != nil {
		keepSystemFields(a.Object.GetObjectMeta(), a.OldObject.GetObjectMeta())
	}
	switch obj := a.Object.(type) {
	case *api.Pod:
		setDefaultsPod(obj)
	case *api.ReplicaSet:
		setDefaultsReplicaSet(obj)
	case *api.Deployment:
		setDefaultsDeployment(obj)
	case *api.Job:
		setDefaultsJob(obj)
	case *api.Secret:
		setDefaultsSecret(obj)
	case *api.Namespace:
		setDefaultsNamespace(obj)
	case *api.Node:
		setDefaultsNode(obj)
	case *api.RoleBinding:
		setDefaultsRoleRef(&obj.RoleRef)
		setDefaultsSubjects(obj.Subjects)
	case *api.ClusterRoleBinding:
		setDefaultsRoleRef(&obj.RoleRef)
		setDefaultsSubjects(obj.Subjects)
	}
	return nil
}

// keepSystemFields fills the identity fields a client left out of an update
// (kubectl replace sends the manifest, which has neither) from the stored
// object, as Kubernetes' rest.BeforeUpdate does. A client that sends a
// different value still gets "field is immutable" from validation.
func keepSystemFields(m, old *api.ObjectMeta) {
	if m.UID == "" {
		m.UID = old.UID
	}
	if m.CreationTimestamp.IsZero() {
		m.CreationTimestamp = old.CreationTimestamp
	}
}

// Kubernetes' pod defaults (SetDefaults_PodSpec, SetDefaults_Container).
const (
	defaultTerminationGracePeriodSeconds int64 = 30
	defaultTerminationMessagePath              = "/dev/termination-log"
	defaultTerminationMessagePolicy            = "File"
	defaultDNSPolicy                           = "ClusterFirst"
)

// setDefaultsPod is SetDefaults_Pod plus the spec and container defaults.
// Requests copied from limits make a container that only states limits
// reserve what it may use, which is what the scheduler then counts; this
// applies to pods only, not to templates, exactly as in Kubernetes.
func setDefaultsPod(pod *api.Pod) {
	for i := range pod.Spec.Containers {
		r := &pod.Spec.Containers[i].Resources
		for name, limit := range r.Limits {
			if _, ok := r.Requests[name]; ok {
				continue
			}
			if r.Requests == nil {
				r.Requests = api.ResourceList{}
			}
			r.Requests[name] = limit
		}
	}
	setDefaultsPodSpec(&pod.Spec)
}

func setDefaultsPodSpec(spec *api.PodSpec) {
	if spec.RestartPolicy == "" {
		spec.RestartPolicy = api.RestartPolicyAlways
	}
	if spec.DNSPolicy == "" {
		spec.DNSPolicy = defaultDNSPolicy
	}
	if spec.TerminationGracePeriodSeconds == nil {
		s := defaultTerminationGracePeriodSeconds
		spec.TerminationGracePeriodSeconds = &s
	}
	if spec.SchedulerName == "" {
		spec.SchedulerName = api.DefaultSchedulerName
	}
	for i := range spec.Containers {
		setDefaultsContainer(&spec.Containers[i])
	}
}

func setDefaultsContainer(c *api.Container) {
	if c.ImagePullPolicy == "" {
		if imageTag(c.Image) == "latest" {
			c.ImagePullPolicy = api.PullAlways
		} else {
			c.ImagePullPolicy = api.PullIfNotPresent
		}
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = defaultTerminationMessagePath
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = defaultTerminationMessagePolicy
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = api.ProtocolTCP
		}
	}
}

// imageTag returns the tag of an image reference, "latest" when it has
// neither tag nor digest (that is what the runtime pulls), and "" when it is
// pinned by digest only. A colon before the last slash is a registry port
// ("localhost:5000/app"), not a tag.
func imageTag(image string) string {
	name, _, hasDigest := strings.Cut(image, "@")
	lastSlash := strings.LastIndex(name, "/")
	if i := strings.LastIndex(name, ":"); i > lastSlash {
		return name[i+1:]
	}
	if hasDigest {
		return ""
	}
	return "latest"
}

// setDefaultsReplicaSet is apps/v1's SetDefaults_ReplicaSet plus the pod
// template defaults. apps/v1 does not default the selector from the
// template labels (extensions/v1beta1 did): it is required, and validation
// says so.
func setDefaultsReplicaSet(rs *api.ReplicaSet) {
	if rs.Spec.Replicas == nil {
		one := int32(1)
		rs.Spec.Replicas = &one
	}
	setDefaultsPodSpec(&rs.Spec.Template.Spec)
}

// setDefaultsNamespace: a namespace is Active until it is deleted. Kubernetes
// also adds the "kubernetes" spec finalizer on create; we do not, because
// only a namespace controller that empties the namespace may remove it.
func setDefaultsNamespace(ns *api.Namespace) {
	if ns.Status.Phase == "" {
		ns.Status.Phase = api.NamespaceActive
	}
}

// setDefaultsNode: a node that reports capacity but no allocatable offers
// all of its capacity (SetDefaults_NodeStatus).
func setDefaultsNode(n *api.Node) {
	if n.Status.Allocatable == nil && n.Status.Capacity != nil {
		n.Status.Allocatable = n.Status.Capacity.DeepCopy()
	}
}
