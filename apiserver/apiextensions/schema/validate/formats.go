package validate

import (
	"encoding/base64"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"kubeloop/api"
)

// The formats Kubernetes validates (apiextensions-apiserver
// pkg/apiserver/validation/formats.go, supportedVersionedFormats at
// v1.37.2). Any other format is documentation only: Kubernetes strips it
// before validating. Format names are compared without "-", as go-openapi
// normalizes them ("date-time" is "datetime").
var stringFormats = map[string]func(string) bool{
	"bsonobjectid": isBSONObjectID,
	"uri":          isURI,
	"email":        isEmail,
	"hostname":     isHostname,
	"ipv4":         func(s string) bool { ip := net.ParseIP(s); return ip != nil && strings.Contains(s, ".") },
	"ipv6":         func(s string) bool { ip := net.ParseIP(s); return ip != nil && strings.Contains(s, ":") },
	"cidr":         func(s string) bool { _, _, err := net.ParseCIDR(s); return err == nil },
	"mac":          func(s string) bool { _, err := net.ParseMAC(s); return err == nil },
	"uuid":         func(s string) bool { return isUUID(s, 0) },
	"uuid3":        func(s string) bool { return isUUID(s, '3') },
	"uuid4":        func(s string) bool { return isUUID(s, '4') },
	"uuid5":        func(s string) bool { return isUUID(s, '5') },
	"isbn":         func(s string) bool { return isISBN(s, 10) || isISBN(s, 13) },
	"isbn10":       func(s string) bool { return isISBN(s, 10) },
	"isbn13":       func(s string) bool { return isISBN(s, 13) },
	"creditcard":   isCreditCard,
	"ssn":          isSSN,
	"hexcolor":     isHexColor,
	"rgbcolor":     isRGBColor,
	"byte":         func(s string) bool { _, err := base64.StdEncoding.DecodeString(s); return err == nil },
	"password":     func(string) bool { return true },
	"date":         func(s string) bool { _, err := time.Parse("2006-01-02", s); return err == nil },
	"duration":     isDuration,
	"datetime":     isDateTime,
	"k8sshortname": func(s string) bool { return len(api.IsDNS1123Label(s)) == 0 },
	"k8slongname":  func(s string) bool { return len(api.IsDNS1123Subdomain(s)) == 0 },
}

// supportedFormat is the format validated for a node of type typ, or "".
// Numbers' formats (int32, int64, float, double) only say how big a value
// may be, which the decoder's int64 and float64 already bound.
func supportedFormat(typ, format string) string {
	if format == "" || (typ != "" && typ != "string") {
		return ""
	}
	normalized := strings.ReplaceAll(format, "-", "")
	if _, ok := stringFormats[normalized]; !ok {
		return ""
	}
	return normalized
}

func validFormat(format, s string) bool { return stringFormats[format](s) }

func isURI(s string) bool {
	_, err := url.ParseRequestURI(s)
	return err == nil
}

func isEmail(s string) bool {
	_, err := mail.ParseAddress(s)
	return err == nil
}

// isHostname is RFC 1034 section 3.1 as go-openapi reads it: at most 255
// characters of dot-separated labels of letters, digits and '-' (not at a
// label's ends), each at most 63 long.
func isHostname(s string) bool {
	if len(s) == 0 || len(s) > 255 {
		return false
	}
	for _, label := range strings.Split(strings.TrimSuffix(s, "."), ".") {
		if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !isAlnum(c) && c != '-' {
				return false
			}
		}
	}
	return true
}

func isAlnum(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// isUUID: 32 hex digits in groups 8-4-4-4-12, the dashes optional, in any
// case; version (when not 0) is the first digit of the third group, and
// versions 4 and 5 also need the variant 8, 9, a or b.
func isUUID(s string, version byte) bool {
	hex := strings.ReplaceAll(s, "-", "")
	if len(hex) != 32 || (len(s) != 32 && len(s) != 36) {
		return false
	}
	if len(s) == 36 && (s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-') {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if !isHex(hex[i]) {
			return false
		}
	}
	if version != 0 && hex[12] != version {
		return false
	}
	if version == '4' || version == '5' {
		return strings.ContainsRune("89abAB", rune(hex[16]))
	}
	return true
}

func isBSONObjectID(s string) bool {
	if len(s) != 24 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// isISBN checks the length and check digit of an ISBN-10 or -13, ignoring
// spaces and dashes.
func isISBN(s string, n int) bool {
	d := strings.NewReplacer("-", "", " ", "").Replace(s)
	if len(d) != n {
		return false
	}
	sum := 0
	for i := 0; i < n; i++ {
		c := d[i]
		var v int
		switch {
		case c >= '0' && c <= '9':
			v = int(c - '0')
		case n == 10 && i == 9 && (c == 'X' || c == 'x'):
			v = 10
		default:
			return false
		}
		if n == 10 {
			sum += v * (10 - i)
		} else if i%2 == 0 {
			sum += v
		} else {
			sum += 3 * v
		}
	}
	if n == 10 {
		return sum%11 == 0
	}
	return sum%10 == 0
}

// isCreditCard: 13 to 19 digits (other characters ignored) passing the
// Luhn check.
func isCreditCard(s string) bool {
	var digits []int
	for _, c := range s {
		if c >= '0' && c <= '9' {
			digits = append(digits, int(c-'0'))
		}
	}
	if len(digits) < 13 || len(digits) > 19 {
		return false
	}
	sum := 0
	for i := range digits {
		d := digits[len(digits)-1-i]
		if i%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

// isSSN is ^\d{3}[- ]?\d{2}[- ]?\d{4}$.
func isSSN(s string) bool {
	d := strings.NewReplacer("-", "", " ", "").Replace(s)
	if len(d) != 9 || len(s) > 11 {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// isHexColor is ^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$.
func isHexColor(s string) bool {
	s = strings.TrimPrefix(s, "#")
	if len(s) != 3 && len(s) != 6 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// isRGBColor is rgb(r,g,b) with each component 0-255.
func isRGBColor(s string) bool {
	inner, ok := strings.CutPrefix(s, "rgb(")
	if !ok {
		return false
	}
	if inner, ok = strings.CutSuffix(inner, ")"); !ok {
		return false
	}
	parts := strings.Split(inner, ",")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" || len(p) > 3 {
			return false
		}
		n := 0
		for _, c := range p {
			if c < '0' || c > '9' {
				return false
			}
			n = n*10 + int(c-'0')
		}
		if n > 255 {
			return false
		}
	}
	return true
}

// isDuration accepts Go durations ("1h30m") and go-openapi's "<n> <unit>"
// form ("22 ns", "3 days").
func isDuration(s string) bool {
	if _, err := time.ParseDuration(s); err == nil {
		return true
	}
	num, unit, ok := strings.Cut(strings.TrimSpace(s), " ")
	if !ok || num == "" {
		return false
	}
	for _, c := range num {
		if c < '0' || c > '9' {
			return false
		}
	}
	switch strings.TrimSuffix(strings.TrimSpace(unit), "s") {
	case "n", "ns", "nano", "nanosecond", "u", "us", "µs", "micro", "microsecond", "ms", "milli", "millisecond",
		"", "sec", "second", "m", "min", "minute", "h", "hr", "hour", "d", "day", "w", "wk", "week":
		return true
	}
	return false
}

// isDateTime is RFC 3339's date-time, with or without fractional seconds.
func isDateTime(s string) bool {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z0700", "2006-01-02T15:04:05Z0700"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}
