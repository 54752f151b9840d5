package plugins

import "kubeloop/api"

// toleratesTaint reports whether toleration t lets a pod ignore taint.
// An empty effect matches every effect; an empty key with Exists matches
// every taint. Kubernetes: staging/src/k8s.io/api/core/v1/toleration.go,
// Toleration.ToleratesTaint.
func toleratesTaint(t api.Toleration, taint api.Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", api.TolerationOpEqual:
		return t.Value == taint.Value
	case api.TolerationOpExists:
		return true
	}
	return false
}

// tolerates reports whether any of the pod's tolerations covers taint.
func tolerates(tolerations []api.Toleration, taint api.Taint) bool {
	for _, t := range tolerations {
		if toleratesTaint(t, taint) {
			return true
		}
	}
	return false
}
