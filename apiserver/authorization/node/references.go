package node

import "kubeloop/api"

// referencedBy says whether the pod uses the named secret, configmap or
// claim: in a volume (projected ones included), an env or envFrom of any
// container, or, for secrets, its image pull secrets. Kubernetes:
// pkg/api/v1/pod/util.go (VisitPodSecretNames, VisitPodConfigmapNames),
// which the node graph is built from.
func referencedBy(p *api.Pod, resource, name string) bool {
	var names []string
	add := func(n string) {
		if n != "" {
			names = append(names, n)
		}
	}
	for _, v := range p.Spec.Volumes {
		switch resource {
		case "secrets":
			if v.Secret != nil {
				add(v.Secret.SecretName)
			}
		case "configmaps":
			if v.ConfigMap != nil {
				add(v.ConfigMap.Name)
			}
		case "persistentvolumeclaims":
			if v.PersistentVolumeClaim != nil {
				add(v.PersistentVolumeClaim.ClaimName)
			}
		}
		if v.Projected != nil {
			for _, src := range v.Projected.Sources {
				if resource == "secrets" && src.Secret != nil {
					add(src.Secret.Name)
				}
				if resource == "configmaps" && src.ConfigMap != nil {
					add(src.ConfigMap.Name)
				}
			}
		}
	}
	if resource == "secrets" {
		for _, s := range p.Spec.ImagePullSecrets {
			add(s.Name)
		}
	}
	containers := append(append([]api.Container{}, p.Spec.InitContainers...), p.Spec.Containers...)
	for _, c := range containers {
		for _, e := range c.EnvFrom {
			if resource == "secrets" && e.SecretRef != nil {
				add(e.SecretRef.Name)
			}
			if resource == "configmaps" && e.ConfigMapRef != nil {
				add(e.ConfigMapRef.Name)
			}
		}
		for _, e := range c.Env {
			if e.ValueFrom == nil {
				continue
			}
			if resource == "secrets" && e.ValueFrom.SecretKeyRef != nil {
				add(e.ValueFrom.SecretKeyRef.Name)
			}
			if resource == "configmaps" && e.ValueFrom.ConfigMapKeyRef != nil {
				add(e.ValueFrom.ConfigMapKeyRef.Name)
			}
		}
	}
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}
