package client

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// RecommendedConfigPathEnvVar names the environment variable that lists
// kubeconfig files, separated by the OS path-list separator (":" on Unix).
const RecommendedConfigPathEnvVar = "KUBECONFIG"

// KubeconfigUser is the name of the cluster, context and user that
// WriteKubeconfig creates.
const KubeconfigUser = "kubeloop"

// Kubeconfig is the subset of a kubeconfig file (clientcmd/api/v1 Config)
// that kubeloop understands. Fields ending in Data are base64 in the file and
// PEM in memory; sigs.k8s.io/yaml's JSON path decodes them.
type Kubeconfig struct {
	APIVersion     string         `json:"apiVersion,omitempty"`
	Kind           string         `json:"kind,omitempty"`
	CurrentContext string         `json:"current-context"`
	Clusters       []NamedCluster `json:"clusters"`
	Contexts       []NamedContext `json:"contexts"`
	Users          []NamedUser    `json:"users"`
}

// NamedCluster is one entry of clusters.
type NamedCluster struct {
	Name    string            `json:"name"`
	Cluster KubeconfigCluster `json:"cluster"`
}

// KubeconfigCluster is where a cluster is and how to trust it.
type KubeconfigCluster struct {
	Server                   string `json:"server"`
	TLSServerName            string `json:"tls-server-name,omitempty"`
	InsecureSkipTLSVerify    bool   `json:"insecure-skip-tls-verify,omitempty"`
	CertificateAuthority     string `json:"certificate-authority,omitempty"`
	CertificateAuthorityData []byte `json:"certificate-authority-data,omitempty"`
}

// NamedContext is one entry of contexts.
type NamedContext struct {
	Name    string            `json:"name"`
	Context KubeconfigContext `json:"context"`
}

// KubeconfigContext pairs a cluster with a user and a default namespace.
type KubeconfigContext struct {
	Cluster   string `json:"cluster"`
	User      string `json:"user"`
	Namespace string `json:"namespace,omitempty"`
}

// NamedUser is one entry of users.
type NamedUser struct {
	Name string             `json:"name"`
	User KubeconfigUserInfo `json:"user"`
}

// KubeconfigUserInfo is how to authenticate. Exec and auth-provider plugins
// are not supported.
type KubeconfigUserInfo struct {
	Token                 string `json:"token,omitempty"`
	TokenFile             string `json:"tokenFile,omitempty"`
	ClientCertificate     string `json:"client-certificate,omitempty"`
	ClientCertificateData []byte `json:"client-certificate-data,omitempty"`
	ClientKey             string `json:"client-key,omitempty"`
	ClientKeyData         []byte `json:"client-key-data,omitempty"`
}

// KubeconfigPaths returns the files LoadKubeconfig("") reads: those in
// $KUBECONFIG, else ~/.kube/config.
func KubeconfigPaths() ([]string, error) {
	if env := os.Getenv(RecommendedConfigPathEnvVar); env != "" {
		var paths []string
		for _, p := range filepath.SplitList(env) {
			if p != "" {
				paths = append(paths, p)
			}
		}
		if len(paths) > 0 {
			return paths, nil
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("client: find home directory for kubeconfig: %w", err)
	}
	return []string{filepath.Join(home, ".kube", "config")}, nil
}

// LoadKubeconfig reads a kubeconfig. With path "" it reads the files of
// KubeconfigPaths and merges them the way kubectl does, simplified: the
// first file that names a cluster, context or user wins for that name, and
// the first non-empty current-context wins; files in $KUBECONFIG that do not
// exist are skipped, but at least one must. An explicit path must exist.
// client-go: tools/clientcmd/loader.go, ClientConfigLoadingRules.Load.
func LoadKubeconfig(path string) (*Kubeconfig, error) {
	if path != "" {
		return loadKubeconfigFile(path)
	}
	paths, err := KubeconfigPaths()
	if err != nil {
		return nil, err
	}
	merged := &Kubeconfig{}
	found := false
	for _, p := range paths {
		kc, err := loadKubeconfigFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		found = true
		merged.merge(kc)
	}
	if !found {
		return nil, fmt.Errorf("client: no kubeconfig found (looked at %s): %w", strings.Join(paths, ", "), os.ErrNotExist)
	}
	return merged, nil
}

func loadKubeconfigFile(path string) (*Kubeconfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("client: read kubeconfig: %w", err)
	}
	kc := &Kubeconfig{}
	if err := yaml.Unmarshal(data, kc); err != nil {
		return nil, fmt.Errorf("client: parse kubeconfig %s: %w", path, err)
	}
	kc.resolvePaths(filepath.Dir(path))
	return kc, nil
}

// resolvePaths makes file references relative to the kubeconfig's own
// directory, as kubectl does, so a kubeconfig can travel with its certs.
func (kc *Kubeconfig) resolvePaths(dir string) {
	abs := func(p *string) {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
	for i := range kc.Clusters {
		abs(&kc.Clusters[i].Cluster.CertificateAuthority)
	}
	for i := range kc.Users {
		u := &kc.Users[i].User
		abs(&u.TokenFile)
		abs(&u.ClientCertificate)
		abs(&u.ClientKey)
	}
}

func (kc *Kubeconfig) merge(other *Kubeconfig) {
	if kc.CurrentContext == "" {
		kc.CurrentContext = other.CurrentContext
	}
	for _, c := range other.Clusters {
		if _, ok := kc.cluster(c.Name); !ok {
			kc.Clusters = append(kc.Clusters, c)
		}
	}
	for _, c := range other.Contexts {
		if _, ok := kc.context(c.Name); !ok {
			kc.Contexts = append(kc.Contexts, c)
		}
	}
	for _, u := range other.Users {
		if _, ok := kc.user(u.Name); !ok {
			kc.Users = append(kc.Users, u)
		}
	}
}

func (kc *Kubeconfig) cluster(name string) (*KubeconfigCluster, bool) {
	for i := range kc.Clusters {
		if kc.Clusters[i].Name == name {
			return &kc.Clusters[i].Cluster, true
		}
	}
	return nil, false
}

func (kc *Kubeconfig) context(name string) (*KubeconfigContext, bool) {
	for i := range kc.Contexts {
		if kc.Contexts[i].Name == name {
			return &kc.Contexts[i].Context, true
		}
	}
	return nil, false
}

func (kc *Kubeconfig) user(name string) (*KubeconfigUserInfo, bool) {
	for i := range kc.Users {
		if kc.Users[i].Name == name {
			return &kc.Users[i].User, true
		}
	}
	return nil, false
}

// resolveContext finds the named context, or the current one for "".
func (kc *Kubeconfig) resolveContext(name string) (*KubeconfigContext, string, error) {
	if name == "" {
		name = kc.CurrentContext
	}
	if name == "" {
		return nil, "", errors.New("client: kubeconfig has no current-context and none was given")
	}
	ctx, ok := kc.context(name)
	if !ok {
		return nil, "", fmt.Errorf("client: kubeconfig has no context %q", name)
	}
	return ctx, name, nil
}

// Namespace returns the default namespace of the context ("" = current), or
// "default" when the context sets none.
func (kc *Kubeconfig) Namespace(context string) string {
	ctx, _, err := kc.resolveContext(context)
	if err != nil || ctx.Namespace == "" {
		return "default"
	}
	return ctx.Namespace
}

// ClientConfig builds a Config from the named context ("" = current).
// client-go: clientcmd.DirectClientConfig.ClientConfig.
func (kc *Kubeconfig) ClientConfig(context string) (*Config, error) {
	ctx, name, err := kc.resolveContext(context)
	if err != nil {
		return nil, err
	}
	cl, ok := kc.cluster(ctx.Cluster)
	if !ok {
		return nil, fmt.Errorf("client: context %q names cluster %q, which the kubeconfig does not define", name, ctx.Cluster)
	}
	if cl.Server == "" {
		return nil, fmt.Errorf("client: cluster %q has no server", ctx.Cluster)
	}
	cfg := &Config{
		Host: cl.Server,
		TLS: TLSConfig{
			Insecure: cl.InsecureSkipTLSVerify, ServerName: cl.TLSServerName,
			CAFile: cl.CertificateAuthority, CAData: cl.CertificateAuthorityData,
		},
	}
	if ctx.User == "" {
		return cfg, nil
	}
	u, ok := kc.user(ctx.User)
	if !ok {
		return nil, fmt.Errorf("client: context %q names user %q, which the kubeconfig does not define", name, ctx.User)
	}
	cfg.BearerToken = u.Token
	if cfg.BearerToken == "" && u.TokenFile != "" {
		tok, err := os.ReadFile(u.TokenFile)
		if err != nil {
			return nil, fmt.Errorf("client: user %q token file: %w", ctx.User, err)
		}
		cfg.BearerToken = strings.TrimSpace(string(tok))
	}
	cfg.TLS.CertFile, cfg.TLS.CertData = u.ClientCertificate, u.ClientCertificateData
	cfg.TLS.KeyFile, cfg.TLS.KeyData = u.ClientKey, u.ClientKeyData
	return cfg, nil
}

// ConfigFromKubeconfig loads the kubeconfig at path ("" = $KUBECONFIG or
// ~/.kube/config) and builds a Config from context ("" = current).
func ConfigFromKubeconfig(path, context string) (*Config, error) {
	kc, err := LoadKubeconfig(path)
	if err != nil {
		return nil, err
	}
	return kc.ClientConfig(context)
}

// WriteKubeconfig writes a kubeconfig with one cluster, context and user,
// all named "kubeloop", pointing at cfg's host with cfg's credentials, and
// makes it the current context. `kubeloop up` uses it so that kubectl and
// kubectl-lite find the cluster. The file is private (0600): it may hold a
// token or a key.
func WriteKubeconfig(path string, cfg *Config) error {
	kc := Kubeconfig{
		APIVersion: "v1", Kind: "Config", CurrentContext: KubeconfigUser,
		Clusters: []NamedCluster{{Name: KubeconfigUser, Cluster: KubeconfigCluster{
			Server: cfg.Host, InsecureSkipTLSVerify: cfg.TLS.Insecure, TLSServerName: cfg.TLS.ServerName,
			CertificateAuthority: cfg.TLS.CAFile, CertificateAuthorityData: cfg.TLS.CAData,
		}}},
		Contexts: []NamedContext{{Name: KubeconfigUser, Context: KubeconfigContext{
			Cluster: KubeconfigUser, User: KubeconfigUser, Namespace: "default",
		}}},
		Users: []NamedUser{{Name: KubeconfigUser, User: KubeconfigUserInfo{
			Token:             cfg.BearerToken,
			ClientCertificate: cfg.TLS.CertFile, ClientCertificateData: cfg.TLS.CertData,
			ClientKey: cfg.TLS.KeyFile, ClientKeyData: cfg.TLS.KeyData,
		}}},
	}
	data, err := yaml.Marshal(kc)
	if err != nil {
		return fmt.Errorf("client: encode kubeconfig: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("client: write kubeconfig: %w", err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("client: write kubeconfig: %w", err)
	}
	return nil
}
