package crdserving

import (
	"regexp"
	"strconv"
)

// kubeVersion matches the version names Kubernetes orders by meaning:
// v1, v2beta1, v1alpha3.
var kubeVersion = regexp.MustCompile(`^v(\d+)(?:(alpha|beta)(\d+))?$`)

// VersionPriorityLess reports whether version a sorts below b in
// Kubernetes' version priority: GA above beta above alpha, higher major
// then higher minor first, and names of another form last, alphabetically.
// Kubernetes: apimachinery/pkg/version/helpers.go (CompareKubeAwareVersionStrings).
func VersionPriorityLess(a, b string) bool {
	ra, rb := rank(a), rank(b)
	if ra != rb {
		return ra.less(rb)
	}
	return a > b // two non-Kubernetes names: alphabetical order ranks higher
}

type versionRank struct {
	kube         bool
	stability    int // 2 GA, 1 beta, 0 alpha
	major, minor int
}

func rank(v string) versionRank {
	m := kubeVersion.FindStringSubmatch(v)
	if m == nil {
		return versionRank{}
	}
	r := versionRank{kube: true, stability: 2}
	r.major, _ = strconv.Atoi(m[1])
	switch m[2] {
	case "beta":
		r.stability = 1
	case "alpha":
		r.stability = 0
	}
	r.minor, _ = strconv.Atoi(m[3])
	return r
}

func (a versionRank) less(b versionRank) bool {
	switch {
	case a.kube != b.kube:
		return !a.kube
	case a.stability != b.stability:
		return a.stability < b.stability
	case a.major != b.major:
		return a.major < b.major
	}
	return a.minor < b.minor
}
