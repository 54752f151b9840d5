package discovery

import (
	"net/http"
	"sort"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
	"kubeloop/apiserver/endpoints/request"
)

// The discovery documents, in the legacy (unaggregated) shapes of
// k8s.io/apimachinery/pkg/apis/meta/v1/types.go. kubectl and client-go fall
// back to these when the server does not offer aggregated discovery.

type apiVersions struct {
	Kind                       string                      `json:"kind"`
	Versions                   []string                    `json:"versions"`
	ServerAddressByClientCIDRs []serverAddressByClientCIDR `json:"serverAddressByClientCIDRs"`
}

type serverAddressByClientCIDR struct {
	ClientCIDR    string `json:"clientCIDR"`
	ServerAddress string `json:"serverAddress"`
}

type apiGroupList struct {
	Kind       string     `json:"kind"`
	APIVersion string     `json:"apiVersion"`
	Groups     []apiGroup `json:"groups"`
}

type apiGroup struct {
	Kind             string                     `json:"kind,omitempty"`
	APIVersion       string                     `json:"apiVersion,omitempty"`
	Name             string                     `json:"name"`
	Versions         []groupVersionForDiscovery `json:"versions"`
	PreferredVersion groupVersionForDiscovery   `json:"preferredVersion"`
}

type groupVersionForDiscovery struct {
	GroupVersion string `json:"groupVersion"`
	Version      string `json:"version"`
}

type apiResourceList struct {
	Kind         string        `json:"kind"`
	APIVersion   string        `json:"apiVersion"`
	GroupVersion string        `json:"groupVersion"`
	Resources    []apiResource `json:"resources"`
}

type apiResource struct {
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

// resourceVerbs is what every main resource supports.
func resourceVerbs() []string {
	return []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
}

// verbsOf is what a resource supports: a stored kind every verb, a
// review only create.
func verbsOf(info *api.ResourceInfo) []string {
	if info.Verbs != nil {
		return append([]string(nil), info.Verbs...)
	}
	return resourceVerbs()
}

// Handler answers the discovery documents of a registry's kinds under /api
// and /apis: every request there that names no resource.
type Handler struct {
	reg Kinds
}

// Kinds is what discovery lists: every kind served, in order (a group's
// first version listed is its preferred one). *api.Registry is one; the
// apiserver's is the registry followed by the served custom resources.
type Kinds interface {
	All() []*api.ResourceInfo
}

// New serves discovery for reg.
func New(reg Kinds) *Handler { return &Handler{reg: reg} }

// ServeHTTP answers one discovery request; its RequestInfo must be in the
// context (filters.WithRequestInfo).
func (s *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ri, ok := request.RequestInfoFrom(r.Context())
	if !ok {
		ri = request.NewRequestInfo(r)
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		responsewriters.WriteStatus(w, api.NewMethodNotSupported(api.GroupResource{}, r.Method))
		return
	}
	switch {
	case ri.APIPrefix == "api" && ri.APIVersion == "" && wantsAggregatedDiscovery(r):
		writeAggregatedDiscovery(w, s.aggregatedDiscovery(true))
	case ri.APIPrefix == "apis" && len(ri.Parts) == 0 && wantsAggregatedDiscovery(r):
		writeAggregatedDiscovery(w, s.aggregatedDiscovery(false))
	case ri.APIPrefix == "api" && ri.APIVersion == "":
		responsewriters.WriteRawJSON(w, http.StatusOK, apiVersions{
			Kind: "APIVersions", Versions: []string{"v1"},
			ServerAddressByClientCIDRs: []serverAddressByClientCIDR{{ClientCIDR: "0.0.0.0/0", ServerAddress: r.Host}},
		})
	case ri.APIPrefix == "apis" && len(ri.Parts) == 0:
		responsewriters.WriteRawJSON(w, http.StatusOK, apiGroupList{Kind: "APIGroupList", APIVersion: "v1", Groups: s.groups()})
	case ri.APIPrefix == "apis" && len(ri.Parts) == 1:
		for _, g := range s.groups() {
			if g.Name == ri.Parts[0] {
				g.Kind, g.APIVersion = "APIGroup", "v1"
				responsewriters.WriteRawJSON(w, http.StatusOK, g)
				return
			}
		}
		http.NotFound(w, r)
	default:
		list, ok := s.resourceList(ri.APIGroup, ri.APIVersion)
		if !ok {
			http.NotFound(w, r)
			return
		}
		responsewriters.WriteRawJSON(w, http.StatusOK, list)
	}
}

// groups lists the named API groups, sorted, each with its versions.
func (s *Handler) groups() []apiGroup {
	byName := map[string]*apiGroup{}
	var names []string
	for _, info := range s.reg.All() {
		if info.Group == "" {
			continue
		}
		g, ok := byName[info.Group]
		if !ok {
			gv := groupVersionForDiscovery{GroupVersion: info.GroupVersion(), Version: info.Version}
			g = &apiGroup{Name: info.Group, PreferredVersion: gv}
			byName[info.Group] = g
			names = append(names, info.Group)
		}
		found := false
		for _, v := range g.Versions {
			found = found || v.Version == info.Version
		}
		if !found {
			g.Versions = append(g.Versions, groupVersionForDiscovery{GroupVersion: info.GroupVersion(), Version: info.Version})
		}
	}
	sort.Strings(names)
	out := make([]apiGroup, 0, len(names))
	for _, n := range names {
		out = append(out, *byName[n])
	}
	return out
}

// resourceList is the APIResourceList of one group version: every kind and
// its subresources.
func (s *Handler) resourceList(group, version string) (apiResourceList, bool) {
	gv := version
	if group != "" {
		gv = group + "/" + version
	}
	list := apiResourceList{Kind: "APIResourceList", APIVersion: "v1", GroupVersion: gv, Resources: []apiResource{}}
	found := false
	for _, info := range s.reg.All() {
		if info.Group != group || info.Version != version {
			continue
		}
		found = true
		list.Resources = append(list.Resources, apiResource{
			Name: info.Resource, SingularName: info.Singular, Namespaced: info.Namespaced,
			Kind: info.Kind, Verbs: verbsOf(info), ShortNames: info.ShortNames, Categories: info.Categories,
		})
		if info.HasStatus {
			list.Resources = append(list.Resources, apiResource{
				Name: info.Resource + "/status", Namespaced: info.Namespaced, Kind: info.Kind,
				Verbs: []string{"get", "patch", "update"},
			})
		}
		for _, sub := range info.Subresources {
			switch sub {
			case "scale":
				list.Resources = append(list.Resources, apiResource{
					Name: info.Resource + "/scale", Namespaced: info.Namespaced,
					Group: "autoscaling", Version: "v1", Kind: "Scale",
					Verbs: []string{"get", "patch", "update"},
				})
			case "binding":
				list.Resources = append(list.Resources, apiResource{
					Name: info.Resource + "/binding", Namespaced: info.Namespaced, Kind: "Binding",
					Verbs: []string{"create"},
				})
			case "token":
				list.Resources = append(list.Resources, apiResource{
					Name: info.Resource + "/token", Namespaced: info.Namespaced,
					Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest",
					Verbs: []string{"create"},
				})
			case "finalize":
				list.Resources = append(list.Resources, apiResource{
					Name: info.Resource + "/finalize", Namespaced: info.Namespaced, Kind: info.Kind,
					Verbs: []string{"update"},
				})
			}
		}
	}
	return list, found
}
