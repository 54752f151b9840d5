package printers

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver/registry/rest"
)

// tableColumn is one column definition of a Table.
type tableColumn = rest.TableColumnDefinition

// tablePrinter is the columns of one kind and how to fill a row. Rows are
// always generated wide, as Kubernetes' server does; kubectl hides the
// priority-1 columns unless asked.
type tablePrinter struct {
	columns []tableColumn
	cells   func(obj api.Object, now time.Time) []any
}

// The column sets follow what kube-apiserver v1.37.2 serves, from
// pkg/printers/internalversion/printers.go (AddHandlers and the printPod,
// printReplicaSet, printConfigMap, printNode, printNamespace, printEvent,
// printLease functions). The descriptions are ours.

func nameColumn() tableColumn {
	return tableColumn{Name: "Name", Type: "string", Format: "name", Description: "Name of the object, unique within its namespace (or the cluster for cluster-scoped kinds)."}
}

func ageColumn() tableColumn {
	return tableColumn{Name: "Age", Type: "string", Description: "Time since the object was created (metadata.creationTimestamp)."}
}

func col(name, typ, desc string, priority int32) tableColumn {
	return tableColumn{Name: name, Type: typ, Description: desc, Priority: priority}
}

// tablePrinterFor returns the printer of a kind; kinds without one get the
// default Name and Age columns, as Kubernetes' default table convertor.
func tablePrinterFor(info *api.ResourceInfo) tablePrinter {
	switch info.Group + "/" + info.Kind {
	case "/Pod":
		return tablePrinter{columns: []tableColumn{
			nameColumn(),
			col("Ready", "string", "Ready containers out of all containers.", 0),
			col("Status", "string", "The pod's phase, or the reason a container is not running.", 0),
			col("Restarts", "string", "Container restarts in total, and how long ago the last one was.", 0),
			ageColumn(),
			col("IP", "string", "The pod's IP address.", 1),
			col("Node", "string", "The node the pod is bound to.", 1),
			col("Nominated Node", "string", "The node preemption nominated for the pod.", 1),
			col("Readiness Gates", "string", "Ready readiness gates out of all of them.", 1),
		}, cells: podCells}
	case "apps/ReplicaSet":
		return tablePrinter{columns: []tableColumn{
			nameColumn(),
			col("Desired", "integer", "spec.replicas: how many pods are wanted.", 0),
			col("Current", "integer", "status.replicas: how many pods exist.", 0),
			col("Ready", "integer", "status.readyReplicas: how many pods are ready.", 0),
			ageColumn(),
			col("Containers", "string", "The names of the template's containers.", 1),
			col("Images", "string", "The images of the template's containers.", 1),
			col("Selector", "string", "The label selector of the pods.", 1),
		}, cells: replicaSetCells}
	case "/ConfigMap":
		return tablePrinter{columns: []tableColumn{
			nameColumn(), col("Data", "integer", "How many keys the ConfigMap holds.", 0), ageColumn(),
		}, cells: configMapCells}
	case "/Node":
		return tablePrinter{columns: []tableColumn{
			nameColumn(),
			col("Status", "string", "Readiness of the node, and SchedulingDisabled when cordoned.", 0),
			col("Roles", "string", "The node-role.kubernetes.io/ labels of the node.", 0),
			ageColumn(),
			col("Version", "string", "The kubelet version the node reports.", 0),
			col("Internal-IP", "string", "The node's first InternalIP address.", 1),
			col("External-IP", "string", "The node's first ExternalIP address.", 1),
			col("OS-Image", "string", "The OS image the node reports.", 1),
			col("Kernel-Version", "string", "The kernel version the node reports.", 1),
			col("Container-Runtime", "string", "The container runtime the node reports.", 1),
		}, cells: nodeCells}
	case "/Namespace":
		return tablePrinter{columns: []tableColumn{
			nameColumn(), col("Status", "string", "The namespace's phase: Active or Terminating.", 0), ageColumn(),
		}, cells: namespaceCells}
	case "/Event":
		return tablePrinter{columns: []tableColumn{
			col("Last Seen", "string", "Time since the event was last seen.", 0),
			col("Type", "string", "Normal or Warning.", 0),
			col("Reason", "string", "Why the event happened, in CamelCase.", 0),
			col("Object", "string", "The object the event is about.", 0),
			col("Subobject", "string", "The field of the object the event is about.", 1),
			col("Source", "string", "The component that reported the event.", 1),
			col("Message", "string", "What happened, for humans.", 0),
			col("First Seen", "string", "Time since the event was first seen.", 1),
			col("Count", "integer", "How many times the event happened.", 1),
			{Name: "Name", Type: "string", Format: "name", Description: "Name of the event.", Priority: 1},
		}, cells: eventCells}
	case "apps/Deployment", "batch/Job", "/Secret", "/ServiceAccount":
		return workloadPrinter(info)
	case "rbac.authorization.k8s.io/Role", "rbac.authorization.k8s.io/ClusterRole",
		"rbac.authorization.k8s.io/RoleBinding", "rbac.authorization.k8s.io/ClusterRoleBinding":
		return rbacPrinter(info)
	case "apiextensions.k8s.io/CustomResourceDefinition":
		return crdPrinter()
	case "coordination.k8s.io/Lease":
		return tablePrinter{columns: []tableColumn{
			nameColumn(), col("Holder", "string", "spec.holderIdentity: who holds the lease.", 0), ageColumn(),
		}, cells: leaseCells}
	}
	return tablePrinter{columns: []tableColumn{nameColumn(), ageColumn()}, cells: func(obj api.Object, now time.Time) []any {
		m := obj.GetObjectMeta()
		return []any{m.Name, api.HumanAge(m.CreationTimestamp, now)}
	}}
}

func podCells(obj api.Object, now time.Time) []any {
	p := obj.(*api.Pod)
	reason := string(p.Status.Phase)
	if p.Status.Reason != "" {
		reason = p.Status.Reason
	}
	var restarts, ready int
	var lastRestart time.Time
	running := false
	// Walk the containers from last to first, so the first container's
	// problem is the one shown, as kubectl users expect.
	for i := len(p.Status.ContainerStatuses) - 1; i >= 0; i-- {
		cs := p.Status.ContainerStatuses[i]
		restarts += int(cs.RestartCount)
		if t := cs.LastTerminationState.Terminated; t != nil && t.FinishedAt.After(lastRestart) {
			lastRestart = t.FinishedAt.Time
		}
		switch st := cs.State; {
		case st.Waiting != nil && st.Waiting.Reason != "":
			reason = st.Waiting.Reason
		case st.Terminated != nil && st.Terminated.Reason != "":
			reason = st.Terminated.Reason
		case st.Terminated != nil && st.Terminated.Signal != 0:
			reason = fmt.Sprintf("Signal:%d", st.Terminated.Signal)
		case st.Terminated != nil:
			reason = fmt.Sprintf("ExitCode:%d", st.Terminated.ExitCode)
		case cs.Ready && st.Running != nil:
			running = true
			ready++
		}
	}
	if reason == "Completed" && running {
		reason = "NotReady"
		for _, c := range p.Status.Conditions {
			if c.Type == api.PodReady && c.Status == api.ConditionTrue {
				reason = "Running"
			}
		}
	}
	if p.DeletionTimestamp != nil {
		if p.Status.Reason == "NodeLost" {
			reason = "Unknown"
		} else if p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			reason = "Terminating"
		}
	}
	restartsText := strconv.Itoa(restarts)
	if !lastRestart.IsZero() {
		restartsText = fmt.Sprintf("%d (%s ago)", restarts, api.HumanDuration(now.Sub(lastRestart)))
	}
	ip := orNone(p.Status.PodIP)
	if len(p.Status.PodIPs) > 0 {
		ip = p.Status.PodIPs[0].IP
	}
	return []any{
		p.Name, fmt.Sprintf("%d/%d", ready, len(p.Spec.Containers)), reason, restartsText,
		api.HumanAge(p.CreationTimestamp, now),
		ip, orNone(p.Spec.NodeName), orNone(p.Status.NominatedNodeName), "<none>",
	}
}

func replicaSetCells(obj api.Object, now time.Time) []any {
	rs := obj.(*api.ReplicaSet)
	desired := int64(1)
	if rs.Spec.Replicas != nil {
		desired = int64(*rs.Spec.Replicas)
	}
	var names, images []string
	for _, c := range rs.Spec.Template.Spec.Containers {
		names = append(names, c.Name)
		images = append(images, c.Image)
	}
	selector := "<none>"
	if sel, err := api.LabelSelectorAsSelector(rs.Spec.Selector); err == nil && !sel.Empty() {
		selector = sel.String()
	}
	return []any{
		rs.Name, desired, int64(rs.Status.Replicas), int64(rs.Status.ReadyReplicas), api.HumanAge(rs.CreationTimestamp, now),
		strings.Join(names, ","), strings.Join(images, ","), selector,
	}
}

func configMapCells(obj api.Object, now time.Time) []any {
	cm := obj.(*api.ConfigMap)
	return []any{cm.Name, int64(len(cm.Data) + len(cm.BinaryData)), api.HumanAge(cm.CreationTimestamp, now)}
}

func nodeCells(obj api.Object, now time.Time) []any {
	n := obj.(*api.Node)
	status := "Unknown"
	for _, c := range n.Status.Conditions {
		if c.Type == api.NodeReady {
			status = "NotReady"
			if c.Status == api.ConditionTrue {
				status = "Ready"
			}
		}
	}
	if n.Spec.Unschedulable {
		status += ",SchedulingDisabled"
	}
	roles := map[string]bool{}
	for k, v := range n.Labels {
		switch {
		case strings.HasPrefix(k, "node-role.kubernetes.io/"):
			if r := strings.TrimPrefix(k, "node-role.kubernetes.io/"); r != "" {
				roles[r] = true
			}
		case k == "kubernetes.io/role" && v != "":
			roles[v] = true
		}
	}
	roleList := make([]string, 0, len(roles))
	for r := range roles {
		roleList = append(roleList, r)
	}
	sort.Strings(roleList)
	roleText := strings.Join(roleList, ",")
	address := func(t api.NodeAddressType) string {
		for _, a := range n.Status.Addresses {
			if a.Type == t {
				return a.Address
			}
		}
		return "<none>"
	}
	info := n.Status.NodeInfo
	return []any{
		n.Name, status, orNone(roleText), api.HumanAge(n.CreationTimestamp, now), info.KubeletVersion,
		address(api.NodeInternalIP), address(api.NodeExternalIP),
		orUnknown(info.OSImage), orUnknown(info.KernelVersion), orUnknown(info.ContainerRuntimeVersion),
	}
}

func namespaceCells(obj api.Object, now time.Time) []any {
	ns := obj.(*api.Namespace)
	return []any{ns.Name, string(ns.Status.Phase), api.HumanAge(ns.CreationTimestamp, now)}
}

func eventCells(obj api.Object, now time.Time) []any {
	e := obj.(*api.Event)
	first := api.HumanAge(e.FirstTimestamp, now)
	if e.FirstTimestamp.IsZero() {
		first = "<unknown>"
		if !e.EventTime.IsZero() {
			first = api.HumanDuration(now.Sub(e.EventTime.Time))
		}
	}
	last := first
	if !e.LastTimestamp.IsZero() {
		last = api.HumanAge(e.LastTimestamp, now)
	}
	count := int64(e.Count)
	if count == 0 {
		count = 1
	}
	target := strings.ToLower(e.InvolvedObject.Kind)
	if e.InvolvedObject.Name != "" {
		target += "/" + e.InvolvedObject.Name
	}
	return []any{
		last, e.Type, e.Reason, target, e.InvolvedObject.FieldPath, eventSource(e),
		strings.TrimSpace(e.Message), first, count, e.Name,
	}
}

func eventSource(e *api.Event) string {
	component, host := e.Source.Component, e.Source.Host
	if component == "" {
		component, host = e.ReportingController, e.ReportingInstance
	}
	if host != "" {
		return component + ", " + host
	}
	return component
}

func leaseCells(obj api.Object, now time.Time) []any {
	l := obj.(*api.Lease)
	holder := ""
	if l.Spec.HolderIdentity != nil {
		holder = *l.Spec.HolderIdentity
	}
	return []any{l.Name, holder, api.HumanAge(l.CreationTimestamp, now)}
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "<unknown>"
	}
	return s
}
