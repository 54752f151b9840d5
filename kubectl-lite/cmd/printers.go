package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"sigs.k8s.io/yaml"

	"kubeloop/api"
)

// printer writes objects in one of kubectl's -o formats. The table columns
// are computed here, on the client, from the objects themselves; kubectl
// asks the server for a Table (Accept: as=Table) whose rows the server
// computes with the same rules (pkg/printers/internalversion/printers.go).
type printer struct {
	out           io.Writer
	format        string // "", "wide", "yaml", "json" or "name"
	allNamespaces bool
	showLabels    bool
}

func newPrinter(out io.Writer, format string, allNamespaces, showLabels bool) (*printer, error) {
	switch format {
	case "", "wide", "yaml", "json", "name":
		return &printer{out: out, format: format, allNamespaces: allNamespaces, showLabels: showLabels}, nil
	}
	return nil, usageErrorf("unable to match a printer suitable for the output format %q, allowed formats are: json,name,wide,yaml", format)
}

// newTabWriter is kubectl's table writer: columns padded by three spaces.
func newTabWriter(out io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(out, 6, 4, 3, ' ', 0)
}

// print writes objs. single says the user named one object, so yaml and
// json print it bare rather than inside a List. header is false for the
// rows that follow a watch's first batch.
func (p *printer) print(info *api.ResourceInfo, objs []api.Object, single, header bool) error {
	switch p.format {
	case "name":
		for _, o := range objs {
			oi, _ := api.Builtin().ForObject(o)
			fmt.Fprintln(p.out, objectName(oi, o.GetObjectMeta().Name))
		}
		return nil
	case "yaml", "json":
		for _, o := range objs {
			if err := api.Builtin().SetTypeMeta(o); err != nil {
				return err
			}
		}
		var v any = map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": objs}
		if single && len(objs) == 1 {
			v = objs[0]
		}
		return p.encode(v)
	}
	tw := newTabWriter(p.out)
	if header {
		cols := columns(info.Kind, p.format == "wide")
		if p.allNamespaces && info.Namespaced {
			cols = append([]string{"NAMESPACE"}, cols...)
		}
		if p.showLabels {
			cols = append(cols, "LABELS")
		}
		fmt.Fprintln(tw, strings.Join(cols, "\t"))
	}
	for _, o := range objs {
		cells := row(o, p.format == "wide", time.Now())
		if p.allNamespaces && info.Namespaced {
			cells = append([]string{o.GetObjectMeta().Namespace}, cells...)
		}
		if p.showLabels {
			cells = append(cells, labelsString(o.GetObjectMeta().Labels))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// printMixed prints objects that may be of several kinds ("get po/a rs/b"):
// one table per run of the same kind, or one List for yaml and json.
func (p *printer) printMixed(objs []api.Object, single bool) error {
	if len(objs) == 0 {
		return nil
	}
	if p.format == "yaml" || p.format == "json" || p.format == "name" {
		return p.print(nil, objs, single, true)
	}
	start := 0
	for i := 1; i <= len(objs); i++ {
		if i < len(objs) && sameKind(objs[i], objs[start]) {
			continue
		}
		info, _ := api.Builtin().ForObject(objs[start])
		if err := p.print(info, objs[start:i], single, true); err != nil {
			return err
		}
		start = i
	}
	return nil
}

func sameKind(a, b api.Object) bool { return fmt.Sprintf("%T", a) == fmt.Sprintf("%T", b) }

// encode writes v as indented JSON (as kubectl -o json does) or YAML.
func (p *printer) encode(v any) error {
	data, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		return err
	}
	if p.format == "yaml" {
		if data, err = yaml.JSONToYAML(data); err != nil {
			return err
		}
		_, err = p.out.Write(data)
		return err
	}
	_, err = fmt.Fprintf(p.out, "%s\n", data)
	return err
}

// columns are kubectl's column names for each kind.
func columns(kind string, wide bool) []string {
	switch kind {
	case "Pod":
		if wide {
			return []string{"NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE", "NOMINATED NODE", "READINESS GATES"}
		}
		return []string{"NAME", "READY", "STATUS", "RESTARTS", "AGE"}
	case "ReplicaSet":
		if wide {
			return []string{"NAME", "DESIRED", "CURRENT", "READY", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"}
		}
		return []string{"NAME", "DESIRED", "CURRENT", "READY", "AGE"}
	case "ConfigMap":
		return []string{"NAME", "DATA", "AGE"}
	case "Node":
		if wide {
			return []string{"NAME", "STATUS", "ROLES", "AGE", "VERSION", "INTERNAL-IP", "EXTERNAL-IP", "OS-IMAGE", "KERNEL-VERSION", "CONTAINER-RUNTIME"}
		}
		return []string{"NAME", "STATUS", "ROLES", "AGE", "VERSION"}
	case "Namespace":
		return []string{"NAME", "STATUS", "AGE"}
	case "Event":
		return []string{"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"}
	case "Lease":
		return []string{"NAME", "HOLDER", "AGE"}
	}
	return []string{"NAME", "AGE"}
}

// row is one object's cells, in the order of columns.
func row(obj api.Object, wide bool, now time.Time) []string {
	m := obj.GetObjectMeta()
	age := api.HumanAge(m.CreationTimestamp, now)
	switch o := obj.(type) {
	case *api.Pod:
		ready, restarts := 0, int32(0)
		for _, cs := range o.Status.ContainerStatuses {
			if cs.Ready {
				ready++
			}
			restarts += cs.RestartCount
		}
		cells := []string{m.Name, fmt.Sprintf("%d/%d", ready, len(o.Spec.Containers)), podStatus(o), strconv.Itoa(int(restarts)), age}
		if wide {
			cells = append(cells, orNone(o.Status.PodIP), orNone(o.Spec.NodeName), orNone(o.Status.NominatedNodeName), "<none>")
		}
		return cells
	case *api.ReplicaSet:
		desired := int32(1)
		if o.Spec.Replicas != nil {
			desired = *o.Spec.Replicas
		}
		cells := []string{m.Name, itoa(desired), itoa(o.Status.Replicas), itoa(o.Status.ReadyReplicas), age}
		if wide {
			var names, images []string
			for _, c := range o.Spec.Template.Spec.Containers {
				names, images = append(names, c.Name), append(images, c.Image)
			}
			cells = append(cells, strings.Join(names, ","), strings.Join(images, ","), api.FormatLabelSelector(o.Spec.Selector))
		}
		return cells
	case *api.ConfigMap:
		return []string{m.Name, strconv.Itoa(len(o.Data) + len(o.BinaryData)), age}
	case *api.Node:
		cells := []string{m.Name, nodeStatus(o), nodeRoles(o), age, o.Status.NodeInfo.KubeletVersion}
		if wide {
			cells = append(cells, nodeAddress(o, api.NodeInternalIP), nodeAddress(o, api.NodeExternalIP),
				o.Status.NodeInfo.OSImage, o.Status.NodeInfo.KernelVersion, o.Status.NodeInfo.ContainerRuntimeVersion)
		}
		return cells
	case *api.Namespace:
		return []string{m.Name, string(o.Status.Phase), age}
	case *api.Event:
		return []string{eventLastSeen(o, now), o.Type, o.Reason, eventObject(o), strings.TrimSpace(o.Message)}
	case *api.Lease:
		holder := "<none>"
		if o.Spec.HolderIdentity != nil {
			holder = *o.Spec.HolderIdentity
		}
		return []string{m.Name, holder, age}
	}
	return []string{m.Name, age}
}

// podStatus is kubectl's STATUS column: the phase, overridden by the pod's
// reason, then by any container's waiting or terminated reason, and by
// Terminating once deletion has begun.
func podStatus(p *api.Pod) string {
	reason := string(p.Status.Phase)
	if p.Status.Reason != "" {
		reason = p.Status.Reason
	}
	for _, cs := range p.Status.ContainerStatuses {
		switch st := cs.State; {
		case st.Waiting != nil && st.Waiting.Reason != "":
			reason = st.Waiting.Reason
		case st.Terminated != nil && st.Terminated.Reason != "":
			reason = st.Terminated.Reason
		case st.Terminated != nil:
			reason = fmt.Sprintf("ExitCode:%d", st.Terminated.ExitCode)
		}
	}
	if p.DeletionTimestamp != nil {
		reason = "Terminating"
	}
	return reason
}

func nodeStatus(n *api.Node) string {
	status := "Unknown"
	for _, c := range n.Status.Conditions {
		if c.Type == api.NodeReady {
			status = map[api.ConditionStatus]string{api.ConditionTrue: "Ready", api.ConditionFalse: "NotReady"}[c.Status]
			if status == "" {
				status = "Unknown"
			}
		}
	}
	if n.Spec.Unschedulable {
		status += ",SchedulingDisabled"
	}
	return status
}

// nodeRoles reads the node-role.kubernetes.io/<role> labels.
func nodeRoles(n *api.Node) string {
	var roles []string
	for k := range n.Labels {
		if role, ok := strings.CutPrefix(k, "node-role.kubernetes.io/"); ok && role != "" {
			roles = append(roles, role)
		}
	}
	sort.Strings(roles)
	return orNone(strings.Join(roles, ","))
}

func nodeAddress(n *api.Node, t api.NodeAddressType) string {
	for _, a := range n.Status.Addresses {
		if a.Type == t {
			return a.Address
		}
	}
	return "<none>"
}

// eventObject is "kind/name" in lower case: "replicaset/web".
func eventObject(e *api.Event) string {
	return strings.ToLower(e.InvolvedObject.Kind) + "/" + e.InvolvedObject.Name
}

// eventTime is when an event last happened: lastTimestamp, or eventTime for
// events.k8s.io-style events, or creation.
func eventTime(e *api.Event) time.Time {
	switch {
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time
	case !e.EventTime.IsZero():
		return e.EventTime.Time
	}
	return e.CreationTimestamp.Time
}

// eventLastSeen is "5s", or "5s (x3 over 2m)" for a repeated event.
func eventLastSeen(e *api.Event, now time.Time) string {
	last := api.HumanAge(api.Time{Time: eventTime(e)}, now)
	if e.Count > 1 && !e.FirstTimestamp.IsZero() {
		return fmt.Sprintf("%s (x%d over %s)", last, e.Count, api.HumanAge(e.FirstTimestamp, now))
	}
	return last
}

// labelsString is "a=1,b=2" sorted by key, or "<none>".
func labelsString(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = k + "=" + m[k]
	}
	return orNone(strings.Join(keys, ","))
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

func itoa(i int32) string { return strconv.Itoa(int(i)) }
