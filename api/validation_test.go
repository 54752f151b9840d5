package api

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIsDNS1123Subdomain(t *testing.T) {
	for _, ok := range []string{"a", "example.com", "web-0", "a.b-c.d", "0", strings.Repeat("a", 253)} {
		assert.Empty(t, IsDNS1123Subdomain(ok), ok)
	}
	for _, bad := range []string{"", "A", "-a", "a-", "a..b", ".a", "a.", "a_b", "ü"} {
		errs := IsDNS1123Subdomain(bad)
		if assert.Len(t, errs, 1, bad) {
			assert.Equal(t, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "+
				"and must start and end with an alphanumeric character (e.g. 'example.com', "+
				`regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`, errs[0])
		}
	}
	assert.Equal(t, []string{"must be no more than 253 characters"}, IsDNS1123Subdomain(strings.Repeat("a", 254)))
}

func TestIsDNS1123Label(t *testing.T) {
	for _, ok := range []string{"a", "kube-system", "123-abc", strings.Repeat("x", 63)} {
		assert.Empty(t, IsDNS1123Label(ok), ok)
	}
	assert.Equal(t, []string{"must not contain dots"}, IsDNS1123Label("a.b"))
	assert.Equal(t, []string{"must be no more than 63 characters"}, IsDNS1123Label(strings.Repeat("x", 64)))
	errs := IsDNS1123Label("Bad_Name")
	if assert.Len(t, errs, 1) {
		assert.Equal(t, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "+
			"and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "+
			"regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')", errs[0])
	}
}

func TestNameIsDNSSubdomainAllowsTrailingDashForGenerateName(t *testing.T) {
	assert.Empty(t, NameIsDNSSubdomain("web-", true))
	assert.NotEmpty(t, NameIsDNSSubdomain("web-", false))
	assert.Empty(t, NameIsDNSLabel("ns-", true))
	assert.NotEmpty(t, NameIsDNSLabel("a.b", false))
}

func TestIsQualifiedName(t *testing.T) {
	for _, ok := range []string{"app", "App_1.x-y", "example.com/app", "kubernetes.io/metadata.name", "a/" + strings.Repeat("b", 63)} {
		assert.Empty(t, IsQualifiedName(ok), ok)
	}
	cases := map[string]string{
		"":                      "name part must be non-empty",
		"/app":                  "prefix part must be non-empty",
		"Example.com/app":       "prefix part a lowercase RFC 1123 subdomain",
		"a/b/c":                 "a valid label key must consist of alphanumeric characters",
		"-app":                  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
		strings.Repeat("k", 64): "name part must be no more than 63 bytes",
		"example.com/":          "name part must be non-empty",
		"app name":              "name part must consist",
	}
	for key, want := range cases {
		errs := IsQualifiedName(key)
		assert.NotEmpty(t, errs, key)
		assert.Contains(t, strings.Join(errs, "\n"), want, key)
	}
}

func TestIsValidLabelValue(t *testing.T) {
	for _, ok := range []string{"", "a", "MyValue", "my_value", "12345", "a.b-c_d", strings.Repeat("v", 63)} {
		assert.Empty(t, IsValidLabelValue(ok), ok)
	}
	for _, bad := range []string{"-a", "a-", "a b", "a/b", "é"} {
		errs := IsValidLabelValue(bad)
		if assert.Len(t, errs, 1, bad) {
			assert.True(t, strings.HasPrefix(errs[0], "a valid label must be an empty string or consist of alphanumeric characters"), errs[0])
			assert.Contains(t, errs[0], "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")
		}
	}
	assert.Equal(t, []string{"must be no more than 63 bytes"}, IsValidLabelValue(strings.Repeat("v", 64)))
}
