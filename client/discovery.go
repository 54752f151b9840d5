package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// VersionInfo is the reply of GET /version (apimachinery version.Info).
type VersionInfo struct {
	Major        string `json:"major"`
	Minor        string `json:"minor"`
	GitVersion   string `json:"gitVersion"`
	GitCommit    string `json:"gitCommit,omitempty"`
	GitTreeState string `json:"gitTreeState,omitempty"`
	BuildDate    string `json:"buildDate,omitempty"`
	GoVersion    string `json:"goVersion,omitempty"`
	Compiler     string `json:"compiler,omitempty"`
	Platform     string `json:"platform,omitempty"`
}

// APIVersions is the reply of GET /api.
type APIVersions struct {
	Versions []string `json:"versions"`
}

// APIGroupList is the reply of GET /apis.
type APIGroupList struct {
	Groups []APIGroup `json:"groups"`
}

// APIGroup is one API group and its versions.
type APIGroup struct {
	Name             string                     `json:"name"`
	Versions         []GroupVersionForDiscovery `json:"versions"`
	PreferredVersion GroupVersionForDiscovery   `json:"preferredVersion"`
}

// GroupVersionForDiscovery is "apps/v1" and its version "v1".
type GroupVersionForDiscovery struct {
	GroupVersion string `json:"groupVersion"`
	Version      string `json:"version"`
}

// APIResourceList is the reply of GET /api/v1 or /apis/<group>/<version>.
type APIResourceList struct {
	GroupVersion string        `json:"groupVersion"`
	Resources    []APIResource `json:"resources"`
}

// APIResource describes one resource or subresource ("pods/status").
type APIResource struct {
	Name         string   `json:"name"`
	SingularName string   `json:"singularName"`
	Namespaced   bool     `json:"namespaced"`
	Group        string   `json:"group,omitempty"`
	Version      string   `json:"version,omitempty"`
	Kind         string   `json:"kind"`
	Verbs        []string `json:"verbs"`
	ShortNames   []string `json:"shortNames,omitempty"`
	Categories   []string `json:"categories,omitempty"`
}

func (c *Client) getJSON(ctx context.Context, path string, into any) error {
	res, err := c.do(ctx, &request{verb: http.MethodGet, path: path})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(res.body, into); err != nil {
		return fmt.Errorf("client: decode %s: %w", path, err)
	}
	return nil
}

// ServerVersion reads /version.
// client-go: discovery.DiscoveryClient.ServerVersion.
func (c *Client) ServerVersion(ctx context.Context) (*VersionInfo, error) {
	v := &VersionInfo{}
	return v, c.getJSON(ctx, "/version", v)
}

// ServerResources walks legacy discovery: /api and /apis for the group
// versions, then each group version's resource list. Unlike client-go there
// is no cache and no aggregated discovery; callers that need it often keep
// the result.
// client-go: discovery.DiscoveryClient.ServerGroupsAndResources.
func (c *Client) ServerResources(ctx context.Context) ([]*APIResourceList, error) {
	var core APIVersions
	if err := c.getJSON(ctx, "/api", &core); err != nil {
		return nil, err
	}
	var groups APIGroupList
	if err := c.getJSON(ctx, "/apis", &groups); err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(core.Versions)+len(groups.Groups))
	for _, v := range core.Versions {
		paths = append(paths, "/api/"+v)
	}
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			paths = append(paths, "/apis/"+v.GroupVersion)
		}
	}
	out := make([]*APIResourceList, 0, len(paths))
	for _, p := range paths {
		l := &APIResourceList{}
		if err := c.getJSON(ctx, p, l); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// ErrGroupDiscoveryFailed is the error of a discovery that read some group
// versions and failed on others: the caller gets what was read, and this
// error says what was not. client-go: discovery.ErrGroupDiscoveryFailed.
type ErrGroupDiscoveryFailed struct {
	// Groups maps each group version that failed ("apps/v1") to its error.
	Groups map[string]error
}

func (e *ErrGroupDiscoveryFailed) Error() string {
	var groups []string
	for gv, err := range e.Groups {
		groups = append(groups, fmt.Sprintf("%s: %v", gv, err))
	}
	sort.Strings(groups)
	return fmt.Sprintf("unable to retrieve the complete list of server APIs: %s", strings.Join(groups, ", "))
}

// ServerPreferredNamespacedResources is the namespaced resources of each
// group's preferred version, without subresources: what the namespace
// controller deletes in a terminating namespace. Group versions that fail
// are left out and named in an *ErrGroupDiscoveryFailed, returned with the
// rest. client-go: discovery.ServerPreferredNamespacedResources.
func (c *Client) ServerPreferredNamespacedResources(ctx context.Context) ([]*APIResourceList, error) {
	var core APIVersions
	if err := c.getJSON(ctx, "/api", &core); err != nil {
		return nil, err
	}
	var groups APIGroupList
	if err := c.getJSON(ctx, "/apis", &groups); err != nil {
		return nil, err
	}
	paths := map[string]string{}
	if len(core.Versions) > 0 {
		paths[core.Versions[0]] = "/api/" + core.Versions[0]
	}
	for _, g := range groups.Groups {
		gv := g.PreferredVersion.GroupVersion
		if gv == "" && len(g.Versions) > 0 {
			gv = g.Versions[0].GroupVersion
		}
		if gv != "" {
			paths[gv] = "/apis/" + gv
		}
	}
	gvs := make([]string, 0, len(paths))
	for gv := range paths {
		gvs = append(gvs, gv)
	}
	sort.Strings(gvs)
	failed := &ErrGroupDiscoveryFailed{Groups: map[string]error{}}
	var out []*APIResourceList
	for _, gv := range gvs {
		l := &APIResourceList{}
		if err := c.getJSON(ctx, paths[gv], l); err != nil {
			failed.Groups[gv] = err
			continue
		}
		kept := &APIResourceList{GroupVersion: l.GroupVersion}
		for _, r := range l.Resources {
			if r.Namespaced && !strings.Contains(r.Name, "/") {
				kept.Resources = append(kept.Resources, r)
			}
		}
		out = append(out, kept)
	}
	if len(failed.Groups) > 0 {
		return out, failed
	}
	return out, nil
}
