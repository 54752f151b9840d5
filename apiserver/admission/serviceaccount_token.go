package admission

import (
	"strings"

	"kubeloop/api"
)

const (
	// ServiceAccountVolumeName starts the name of the volume that carries a
	// pod's credentials; five random characters follow.
	ServiceAccountVolumeName = "kube-api-access"
	// DefaultAPITokenMountPath is where every container finds them: token,
	// ca.crt and namespace, the files client-go's in-cluster config reads.
	DefaultAPITokenMountPath = "/var/run/secrets/kubernetes.io/serviceaccount"
	// rootCAConfigMapName is the ConfigMap with the cluster's CA that
	// controllers/rootcacertpublisher keeps in every namespace.
	rootCAConfigMapName = "kube-root-ca.crt"
	// tokenExpirationSeconds is the lifetime the volume asks for: an hour
	// and seven seconds. Kubernetes picks the odd number so that its token
	// issuer recognises a volume's token, which it may make last longer
	// while warning when it is used after the hour, to find clients that
	// never reread the file (pkg/serviceaccount/claims.go,
	// WarnOnlyBoundTokenExpirationSeconds). kubeloop issues it as asked.
	tokenExpirationSeconds = 3607
	// projectedVolumeDefaultMode is 0644, written out rather than left to
	// defaulting, as Kubernetes does.
	projectedVolumeDefaultMode = 0o644
)

// mountServiceAccountToken gives the pod a projected volume with a bound
// token for its service account, the cluster's CA and its namespace, and
// mounts it read-only at DefaultAPITokenMountPath in every init container
// and container that does not mount something there already. A pod that
// already has a kube-api-access-* volume keeps it; a pod none of whose
// containers needs the volume gets none.
func (p *ServiceAccount) mountServiceAccountToken(pod *api.Pod) {
	volumeName, hasVolume := "", false
	for _, v := range pod.Spec.Volumes {
		if strings.HasPrefix(v.Name, ServiceAccountVolumeName+"-") {
			volumeName, hasVolume = v.Name, true
			break
		}
	}
	if volumeName == "" {
		volumeName = p.generateName(ServiceAccountVolumeName + "-")
	}
	mount := api.VolumeMount{Name: volumeName, ReadOnly: true, MountPath: DefaultAPITokenMountPath}
	needed := false
	for _, containers := range [][]api.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range containers {
			if mountsAt(containers[i], DefaultAPITokenMountPath) {
				continue
			}
			containers[i].VolumeMounts = append(containers[i].VolumeMounts, mount)
			needed = true
		}
	}
	if needed && !hasVolume {
		pod.Spec.Volumes = append(pod.Spec.Volumes, api.Volume{Name: volumeName,
			VolumeSource: api.VolumeSource{Projected: tokenVolumeSource()}})
	}
}

// mountsAt says whether the container already mounts a volume at path;
// the pod's own choice wins over the token.
func mountsAt(c api.Container, path string) bool {
	for _, m := range c.VolumeMounts {
		if m.MountPath == path {
			return true
		}
	}
	return false
}

// tokenVolumeSource is the volume's three sources: the token (file token),
// the CA (ca.crt from the kube-root-ca.crt ConfigMap) and the pod's
// namespace (file namespace, through the downward API).
func tokenVolumeSource() *api.ProjectedVolumeSource {
	mode, expiration := int32(projectedVolumeDefaultMode), int64(tokenExpirationSeconds)
	return &api.ProjectedVolumeSource{
		DefaultMode: &mode,
		Sources: []api.VolumeProjection{
			{ServiceAccountToken: &api.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: &expiration}},
			{ConfigMap: &api.ConfigMapProjection{
				LocalObjectReference: api.LocalObjectReference{Name: rootCAConfigMapName},
				Items:                []api.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}},
			}},
			{DownwardAPI: &api.DownwardAPIProjection{Items: []api.DownwardAPIVolumeFile{{
				Path:     "namespace",
				FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"},
			}}}},
		},
	}
}
