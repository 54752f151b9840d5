package cluster

import (
	"fmt"
	"os"
	"path/filepath"

	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/pki"
	"kubeloop/client"
)

// The kubeconfigs Start writes next to the admin's, one per component, as
// kubeadm writes /etc/kubernetes/{controller-manager,scheduler}.conf.
const (
	ControllerManagerKubeconfig = "controller-manager.kubeconfig"
	SchedulerKubeconfig         = "scheduler.kubeconfig"
)

// KubeletKubeconfig is the file name of node's kubelet kubeconfig
// (kubeadm's kubelet.conf; one per node here, since several simulated
// nodes share a data dir).
func KubeletKubeconfig(node string) string { return "kubelet-" + node + ".kubeconfig" }

// NodeUser is the user a node's kubelet authenticates as; the Node
// authorizer and NodeRestriction know it by this name (and the
// system:nodes group).
func NodeUser(node string) string { return "system:node:" + node }

// writeComponentKubeconfigs writes the controller manager's and the
// scheduler's kubeconfigs into the data dir, each with a client
// certificate of its own kept under pki/ (reused across restarts), so
// `kubeloop controller-manager` and `kubeloop scheduler` in processes of
// their own authenticate as themselves and not as the admin. A plain-HTTP
// cluster has no CA, and no such files.
func (c *Cluster) writeComponentKubeconfigs(pkiDir string) error {
	if c.CA == nil {
		return nil
	}
	dir := filepath.Dir(c.KubeconfigPath)
	for file, u := range map[string]string{
		ControllerManagerKubeconfig: user.KubeControllerManager,
		SchedulerKubeconfig:         user.KubeScheduler,
	} {
		if err := writeKubeconfigFor(c.Config, c.CA, pkiDir, filepath.Join(dir, file), u); err != nil {
			return err
		}
	}
	return nil
}

// WriteKubeletKubeconfig writes <dataDir>/kubelet-<node>.kubeconfig for a
// kubelet started as a process of its own (`kubeloop kubelet`): the
// server and CA of the admin's kubeconfig there, and a client certificate
// for system:node:<node> in system:nodes from the data dir's CA. It stands
// in for kubeadm join's TLS bootstrap, which kubeloop does not have.
func WriteKubeletKubeconfig(dataDir, node string) (string, error) {
	admin, err := client.ConfigFromKubeconfig(filepath.Join(dataDir, "kubeconfig"), "")
	if err != nil {
		return "", fmt.Errorf("cluster: kubelet kubeconfig needs the apiserver's: %w", err)
	}
	pkiDir := filepath.Join(dataDir, "pki")
	if _, err := os.Stat(filepath.Join(pkiDir, "ca.key")); err != nil {
		return "", fmt.Errorf("cluster: kubelet kubeconfig needs the cluster's CA: %w", err)
	}
	ca, err := pki.LoadOrCreateCA(pkiDir)
	if err != nil {
		return "", fmt.Errorf("cluster: %w", err)
	}
	path := filepath.Join(dataDir, KubeletKubeconfig(node))
	return path, writeKubeconfigFor(admin, ca, pkiDir, path, NodeUser(node), user.NodesGroup)
}

// writeKubeconfigFor writes a kubeconfig for u in groups that talks to
// base's server with base's CA.
func writeKubeconfigFor(base *client.Config, ca *pki.CA, pkiDir, path, u string, groups ...string) error {
	name := filepath.Base(path[:len(path)-len(filepath.Ext(path))])
	kp, err := pki.LoadOrCreateClient(pkiDir, name, ca, u, groups)
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	cfg := &client.Config{Host: base.Host, TLS: client.TLSConfig{
		CAData: base.TLS.CAData, CAFile: base.TLS.CAFile, ServerName: base.TLS.ServerName,
		CertData: kp.CertPEM, KeyData: kp.KeyPEM,
	}}
	if err := client.WriteKubeconfig(path, cfg); err != nil {
		return fmt.Errorf("cluster: %s: %w", filepath.Base(path), err)
	}
	return nil
}
