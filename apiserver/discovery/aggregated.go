package discovery

import (
	"encoding/json"
	"net/http"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
)

// Aggregated discovery (apidiscovery.k8s.io/v2): every group, version and
// resource in one response from /api (the core group) and /apis (the named
// groups), so a client with a cold cache needs two requests instead of one
// per group-version. Kubernetes:
// staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated/handler.go
// (ResourceManager, serveHTTP) and the types in
// staging/src/k8s.io/api/apidiscovery/v2/types.go.

// aggregatedDiscoveryType is the one media type clients recognise: the
// response must carry exactly this Content-Type, or kubectl sees nothing.
const aggregatedDiscoveryType = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"

type apiGroupDiscoveryList struct {
	api.TypeMeta `json:",inline"`
	Metadata     struct{}            `json:"metadata"`
	Items        []apiGroupDiscovery `json:"items"`
}

type apiGroupDiscovery struct {
	Metadata struct {
		Name string `json:"name,omitempty"`
	} `json:"metadata"`
	Versions []apiVersionDiscovery `json:"versions"`
}

type apiVersionDiscovery struct {
	Version   string                 `json:"version"`
	Resources []apiResourceDiscovery `json:"resources"`
	Freshness string                 `json:"freshness"`
}

type groupVersionKind struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

type apiResourceDiscovery struct {
	Resource         string                    `json:"resource"`
	ResponseKind     *groupVersionKind         `json:"responseKind"`
	Scope            string                    `json:"scope"`
	SingularResource string                    `json:"singularResource"`
	Verbs            []string                  `json:"verbs"`
	ShortNames       []string                  `json:"shortNames,omitempty"`
	Categories       []string                  `json:"categories,omitempty"`
	Subresources     []apiSubresourceDiscovery `json:"subresources,omitempty"`
}

type apiSubresourceDiscovery struct {
	Subresource  string            `json:"subresource"`
	ResponseKind *groupVersionKind `json:"responseKind"`
	Verbs        []string          `json:"verbs"`
}

// wantsAggregatedDiscovery: the Accept header offers the v2 aggregated
// list before plain JSON.
func wantsAggregatedDiscovery(r *http.Request) bool {
	for _, clause := range strings.Split(r.Header.Get("Accept"), ",") {
		parts := strings.Split(clause, ";")
		params := map[string]string{}
		for _, p := range parts[1:] {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			params[k] = v
		}
		if params["as"] == "" {
			// Plain JSON comes first: the client prefers legacy discovery.
			return false
		}
		if params["g"] == "apidiscovery.k8s.io" && params["v"] == "v2" && params["as"] == "APIGroupDiscoveryList" {
			return true
		}
	}
	return false
}

// aggregatedDiscovery lists the core group (legacy=true, for /api) or the
// named groups (for /apis).
func (s *Handler) aggregatedDiscovery(legacy bool) apiGroupDiscoveryList {
	out := apiGroupDiscoveryList{TypeMeta: api.TypeMeta{Kind: "APIGroupDiscoveryList", APIVersion: "apidiscovery.k8s.io/v2"}, Items: []apiGroupDiscovery{}}
	var groups []string
	if legacy {
		groups = []string{""}
	} else {
		for _, g := range s.groups() {
			groups = append(groups, g.Name)
		}
	}
	for _, g := range groups {
		item := apiGroupDiscovery{}
		item.Metadata.Name = g
		for _, info := range s.reg.All() {
			if info.Group != g {
				continue
			}
			vi := -1
			for i, v := range item.Versions {
				if v.Version == info.Version {
					vi = i
				}
			}
			if vi < 0 {
				item.Versions = append(item.Versions, apiVersionDiscovery{Version: info.Version, Freshness: "Current"})
				vi = len(item.Versions) - 1
			}
			item.Versions[vi].Resources = append(item.Versions[vi].Resources, resourceDiscovery(info))
		}
		out.Items = append(out.Items, item)
	}
	return out
}

func resourceDiscovery(info *api.ResourceInfo) apiResourceDiscovery {
	scope := "Cluster"
	if info.Namespaced {
		scope = "Namespaced"
	}
	rd := apiResourceDiscovery{
		Resource:         info.Resource,
		ResponseKind:     &groupVersionKind{Group: info.Group, Version: info.Version, Kind: info.Kind},
		Scope:            scope,
		SingularResource: info.Singular,
		Verbs:            verbsOf(info),
		ShortNames:       info.ShortNames,
		Categories:       info.Categories,
	}
	if info.HasStatus {
		rd.Subresources = append(rd.Subresources, apiSubresourceDiscovery{
			Subresource:  "status",
			ResponseKind: &groupVersionKind{Group: info.Group, Version: info.Version, Kind: info.Kind},
			Verbs:        []string{"get", "patch", "update"},
		})
	}
	for _, sub := range info.Subresources {
		k, ok := api.SubresourceKind(sub)
		if !ok {
			continue
		}
		verbs := []string{"get", "patch", "update"}
		switch sub {
		case "binding", "token":
			verbs = []string{"create"}
		case "finalize":
			verbs = []string{"update"}
		}
		rd.Subresources = append(rd.Subresources, apiSubresourceDiscovery{
			Subresource:  sub,
			ResponseKind: &groupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind},
			Verbs:        verbs,
		})
	}
	return rd
}

func writeAggregatedDiscovery(w http.ResponseWriter, list apiGroupDiscoveryList) {
	body, err := json.Marshal(list)
	if err != nil {
		responsewriters.WriteStatus(w, api.NewInternalError(err))
		return
	}
	w.Header().Set("Content-Type", aggregatedDiscoveryType)
	w.Header().Set("Vary", "Accept")
	_, _ = w.Write(body)
}
