package serviceaccount

import "strings"

// The names of ServiceAccount users and groups.
const (
	ServiceAccountUsernamePrefix = "system:serviceaccount:"
	AllServiceAccountsGroup      = "system:serviceaccounts"
	namespaceGroupPrefix         = "system:serviceaccounts:"

	// The extra keys a bound token adds to its user.
	PodNameKey      = "authentication.kubernetes.io/pod-name"
	PodUIDKey       = "authentication.kubernetes.io/pod-uid"
	CredentialIDKey = "authentication.kubernetes.io/credential-id"
)

// MakeUsername is system:serviceaccount:<namespace>:<name>.
func MakeUsername(namespace, name string) string {
	return ServiceAccountUsernamePrefix + namespace + ":" + name
}

// SplitUsername is the inverse of MakeUsername; ok is false for any other
// user name.
func SplitUsername(username string) (namespace, name string, ok bool) {
	rest, found := strings.CutPrefix(username, ServiceAccountUsernamePrefix)
	if !found {
		return "", "", false
	}
	namespace, name, found = strings.Cut(rest, ":")
	if !found || namespace == "" || name == "" || strings.Contains(name, ":") {
		return "", "", false
	}
	return namespace, name, true
}

// NamespaceGroup is the group of every service account of a namespace.
func NamespaceGroup(namespace string) string { return namespaceGroupPrefix + namespace }

// MakeGroupNames is the groups of a service account of namespace.
func MakeGroupNames(namespace string) []string {
	return []string{AllServiceAccountsGroup, NamespaceGroup(namespace)}
}
