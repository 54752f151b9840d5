package api

import (
	"fmt"
	"strings"
)

// The name and label formats. The regexes and the wording of the messages
// are Kubernetes' (apimachinery/pkg/util/validation/validation.go and
// pkg/api/validate/content/kube.go): clients and users see these messages
// in 422 replies, so they are wire behaviour.
const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	labelKeyNameFmt     = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt       = "(" + labelKeyNameFmt + ")?"

	dns1123LabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	labelKeyNameMsg     = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueMsg       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

	// DNS1123LabelMaxLength is the longest RFC 1123 label.
	DNS1123LabelMaxLength = 63
	// DNS1123SubdomainMaxLength is the longest RFC 1123 subdomain.
	DNS1123SubdomainMaxLength = 253
	// LabelValueMaxLength is the longest label value and label key name part.
	LabelValueMaxLength = 63
)

// The formats are checked by hand rather than with regexp: STYLE forbids
// package-level compiled regexps, and compiling on every call would put a
// regexp compilation on every write. The regex strings above stay the
// specification and appear in the messages.

// matchesEdgesAndInner reports whether s is non-empty, starts and ends with
// an alphanumeric (lower-case only when lower is set) and has only
// alphanumerics and the characters of inner in between.
func matchesEdgesAndInner(s string, lower bool, inner string) bool {
	if s == "" {
		return false
	}
	alnum := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || !lower && c >= 'A' && c <= 'Z'
	}
	if !alnum(s[0]) || !alnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if !alnum(s[i]) && !strings.ContainsRune(inner, rune(s[i])) {
			return false
		}
	}
	return true
}

func isDNS1123LabelFormat(s string) bool { return matchesEdgesAndInner(s, true, "-") }

func isDNS1123SubdomainFormat(s string) bool {
	for _, label := range strings.Split(s, ".") {
		if !isDNS1123LabelFormat(label) {
			return false
		}
	}
	return true
}

func isLabelNameFormat(s string) bool { return matchesEdgesAndInner(s, false, "-_.") }

// regexMessage renders "msg (e.g. 'a' or 'b', regex used for validation is 're')".
func regexMessage(msg, re string, examples ...string) string {
	var b strings.Builder
	b.WriteString(msg)
	b.WriteString(" (")
	if len(examples) > 0 {
		b.WriteString("e.g. ")
		for i, ex := range examples {
			if i > 0 {
				b.WriteString(" or ")
			}
			fmt.Fprintf(&b, "'%s', ", ex)
		}
	}
	fmt.Fprintf(&b, "regex used for validation is '%s')", re)
	return b.String()
}

func maxLenMessage(n int, unit string) string {
	return fmt.Sprintf("must be no more than %d %s", n, unit)
}

// IsDNS1123Label checks a DNS label (namespace names, for example). It
// returns human-readable problems, none if the value is valid.
func IsDNS1123Label(value string) []string {
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, maxLenMessage(DNS1123LabelMaxLength, "characters"))
	}
	if !isDNS1123LabelFormat(value) {
		if isDNS1123SubdomainFormat(value) {
			// A valid subdomain that is not a label can only have dots.
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, regexMessage(dns1123LabelMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

// IsDNS1123Subdomain checks a DNS subdomain (most object names).
func IsDNS1123Subdomain(value string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, maxLenMessage(DNS1123SubdomainMaxLength, "characters"))
	}
	if !isDNS1123SubdomainFormat(value) {
		errs = append(errs, regexMessage(dns1123SubdomainMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// NameIsDNSSubdomain validates an object name the way most kinds do. With
// prefix true the name is a generateName prefix, which may end in '-'
// because random characters follow it.
func NameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1123Subdomain(name)
}

// NameIsDNSLabel validates an object name that must be a single label
// (namespaces, for example).
func NameIsDNSLabel(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1123Label(name)
}

// maskTrailingDash replaces a final '-' with 'a' so that a generateName
// prefix like "web-" validates.
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-1] + "a"
	}
	return name
}

// IsQualifiedName checks a label key (also annotation keys, finalizer
// names): an optional DNS subdomain prefix and '/', then a name of at most
// 63 characters.
func IsQualifiedName(value string) []string {
	var errs []string
	parts := strings.Split(value, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, msg := range IsDNS1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+msg)
			}
		}
	default:
		return append(errs, "a valid label key "+
			regexMessage(labelKeyNameMsg, labelKeyNameFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > LabelValueMaxLength {
		errs = append(errs, "name part "+maxLenMessage(LabelValueMaxLength, "bytes"))
	}
	if !isLabelNameFormat(name) {
		errs = append(errs, "name part "+regexMessage(labelKeyNameMsg, labelKeyNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsValidLabelValue checks a label value: at most 63 characters of the
// label charset, possibly empty.
func IsValidLabelValue(value string) []string {
	var errs []string
	if len(value) > LabelValueMaxLength {
		errs = append(errs, maxLenMessage(LabelValueMaxLength, "bytes"))
	}
	if value != "" && !isLabelNameFormat(value) {
		errs = append(errs, regexMessage(labelValueMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}
