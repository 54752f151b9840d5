package admission

import (
	"strings"
	"testing"

	"kubeloop/api"
)

// objCase builds a create of whatever build returns.
func objCase(name, group, kind string, build func() api.Object, msg string, want ...cause) validationCase {
	return validationCase{name: name, want: want, msg: msg, attrs: func(t *testing.T) *Attributes {
		return createAttrs(t, group, kind, defaulted(t, build()))
	}}
}

func TestValidateNode(t *testing.T) {
	node := func(edit func(*api.Node)) func() api.Object {
		return func() api.Object {
			n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1.example"}}
			n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "db", Effect: api.TaintEffectNoSchedule}}
			edit(n)
			return n
		}
	}
	runValidationCases(t, "Node", []validationCase{
		objCase("valid", "", "Node", node(func(*api.Node) {}), ""),
		objCase("name a subdomain", "", "Node", node(func(n *api.Node) { n.Name = "Node_1" }), "", cause{invalid_, "metadata.name"}),
		objCase("cluster-scoped has no namespace", "", "Node", node(func(n *api.Node) { n.Namespace = "ns1" }),
			"Forbidden: not allowed on this type", cause{forbidden_, "metadata.namespace"}),
		objCase("taint effect supported", "", "Node", node(func(n *api.Node) { n.Spec.Taints[0].Effect = "Sometimes" }),
			`Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
			cause{notSupported_, "spec.taints[0].effect"}),
		objCase("taint effect required", "", "Node", node(func(n *api.Node) { n.Spec.Taints[0].Effect = "" }), "",
			cause{required_, "spec.taints[0].effect"}),
		objCase("taint key valid", "", "Node", node(func(n *api.Node) { n.Spec.Taints[0].Key = "bad key" }), "",
			cause{invalid_, "spec.taints[0].key"}),
		objCase("taints unique by key and effect", "", "Node", node(func(n *api.Node) {
			n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: "dedicated", Value: "web", Effect: api.TaintEffectNoSchedule})
		}), `Duplicate value: "dedicated:NoSchedule"`, cause{duplicate_, "spec.taints[1]"}),
	})
}

func TestValidateNamespace(t *testing.T) {
	ns := func(name string) func() api.Object {
		return func() api.Object { return &api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}} }
	}
	runValidationCases(t, "Namespace", []validationCase{
		objCase("valid", "", "Namespace", ns("team-a"), ""),
		objCase("name a label, not a subdomain", "", "Namespace", ns("team.a"), `Invalid value: "team.a": must not contain dots`,
			cause{invalid_, "metadata.name"}),
		objCase("name at most 63 characters", "", "Namespace", ns(strings.Repeat("a", 64)), "", cause{invalid_, "metadata.name"}),
		objCase("spec finalizers qualified", "", "Namespace", func() api.Object {
			n := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team-a"}}
			n.Spec.Finalizers = []api.FinalizerName{"kubernetes", "bad name"}
			return n
		}, "", cause{invalid_, "spec.finalizers[1]"}),
	})
}

func TestValidateLease(t *testing.T) {
	lease := func(d *int32) func() api.Object {
		return func() api.Object {
			return &api.Lease{ObjectMeta: api.ObjectMeta{Name: "node-1", Namespace: "kube-node-lease"},
				Spec: api.LeaseSpec{HolderIdentity: ptr("node-1"), LeaseDurationSeconds: d}}
		}
	}
	runValidationCases(t, "Lease", []validationCase{
		objCase("valid", "coordination.k8s.io", "Lease", lease(ptr(int32(40))), ""),
		objCase("duration may be unset", "coordination.k8s.io", "Lease", lease(nil), ""),
		objCase("duration positive", "coordination.k8s.io", "Lease", lease(ptr(int32(0))),
			"Invalid value: 0: must be greater than 0", cause{invalid_, "spec.leaseDurationSeconds"}),
	})
}

func TestValidateConfigMap(t *testing.T) {
	cm := func(edit func(*api.ConfigMap)) func() api.Object {
		return func() api.Object {
			c := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg", Namespace: "ns1"},
				Data: map[string]string{"app.properties": "a=b", "KEY_NAME": "v"}}
			edit(c)
			return c
		}
	}
	runValidationCases(t, "ConfigMap", []validationCase{
		objCase("valid", "", "ConfigMap", cm(func(*api.ConfigMap) {}), ""),
		objCase("key syntax", "", "ConfigMap", cm(func(c *api.ConfigMap) { c.Data["bad key"] = "x" }),
			`Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
			cause{invalid_, "data[bad key]"}),
		objCase("key not dot-dot", "", "ConfigMap", cm(func(c *api.ConfigMap) { c.Data[".."] = "x" }),
			`Invalid value: "..": must not be '..'`, cause{invalid_, "data[..]"}),
		objCase("key at most 253", "", "ConfigMap", cm(func(c *api.ConfigMap) { c.Data[strings.Repeat("k", 254)] = "x" }), "",
			cause{invalid_, "data[" + strings.Repeat("k", 254) + "]"}),
		objCase("binary key not also in data", "", "ConfigMap", cm(func(c *api.ConfigMap) {
			c.BinaryData = map[string][]byte{"KEY_NAME": []byte("v")}
		}), `Invalid value: "KEY_NAME": duplicate of key present in data`, cause{invalid_, "binaryData[KEY_NAME]"}),
		objCase("total at most 1 MiB", "", "ConfigMap", cm(func(c *api.ConfigMap) {
			c.Data["a"] = strings.Repeat("x", 512*1024)
			c.BinaryData = map[string][]byte{"b": []byte(strings.Repeat("y", 512*1024+1))}
		}), "Too long: must have at most 1048576 bytes", cause{tooLong_, ""}),
	})

	immutableUpdate := func(name string, edit func(*api.ConfigMap), want ...cause) validationCase {
		return validationCase{name: name, want: want, attrs: func(t *testing.T) *Attributes {
			old := cm(func(c *api.ConfigMap) { c.Immutable, c.UID = ptr(true), "u-1" })().(*api.ConfigMap)
			c := old.DeepCopyObject().(*api.ConfigMap)
			edit(c)
			return updateAttrs(t, "", "ConfigMap", c, old)
		}}
	}
	runValidationCases(t, "ConfigMap", []validationCase{
		immutableUpdate("labels of an immutable configmap may change", func(c *api.ConfigMap) { c.Labels = map[string]string{"a": "b"} }),
		immutableUpdate("data of an immutable configmap may not", func(c *api.ConfigMap) { c.Data["KEY_NAME"] = "w" },
			cause{forbidden_, "data"}),
		immutableUpdate("immutable may not be unset", func(c *api.ConfigMap) { c.Immutable = nil },
			cause{forbidden_, "immutable"}),
	})
}

func TestValidateEvent(t *testing.T) {
	event := func(ns, involvedNS string) func() api.Object {
		return func() api.Object {
			return &api.Event{ObjectMeta: api.ObjectMeta{Name: "web-1.17a", Namespace: ns},
				InvolvedObject: api.ObjectReference{Kind: "Pod", Name: "web-1", Namespace: involvedNS},
				Reason:         "Scheduled", Type: api.EventTypeNormal}
		}
	}
	runValidationCases(t, "Event", []validationCase{
		objCase("valid", "", "Event", event("ns1", "ns1"), ""),
		objCase("cluster-scoped object's event in default", "", "Event", event("default", ""), ""),
		objCase("involved namespace matches", "", "Event", event("ns1", "ns2"),
			`Invalid value: "ns2": does not match event.namespace`, cause{invalid_, "involvedObject.namespace"}),
		objCase("cluster-scoped object's event outside default", "", "Event", event("ns1", ""), "",
			cause{invalid_, "involvedObject.namespace"}),
		objCase("reason at most 128", "", "Event", func() api.Object {
			e := event("ns1", "ns1")().(*api.Event)
			e.Reason = strings.Repeat("r", 129)
			return e
		}, "", cause{invalid_, "reason"}),
		objCase("new-style event names its reporter", "", "Event", func() api.Object {
			e := event("ns1", "ns1")().(*api.Event)
			e.EventTime = api.NowMicro()
			return e
		}, "", cause{required_, "reportingComponent"}, cause{required_, "reportingInstance"}),
	})
}

func TestValidateBinding(t *testing.T) {
	binding := func(kind, node string) validationCase {
		return validationCase{attrs: func(t *testing.T) *Attributes {
			b := api.NewBinding("ns1", "web-1", node)
			b.Target.Kind = kind
			a := createAttrs(t, "", "Pod", b)
			a.Subresource = "binding"
			return a
		}}
	}
	ok := binding("Node", "node-1")
	ok.name = "valid"
	noNode := binding("Node", "")
	noNode.name, noNode.want = "target name required", []cause{{required_, "target.name"}}
	notNode := binding("Pod", "node-1")
	notNode.name, notNode.want = "target is a node", []cause{{notSupported_, "target.kind"}}
	notNode.msg = `Unsupported value: "Pod": supported values: "Node", "<empty>"`
	runValidationCases(t, "Binding", []validationCase{ok, noNode, notNode})
}
