package names

import "crypto/rand"

// GenerateName appends five random characters to base, cut so the result
// fits a 63-character DNS label. The alphabet has no vowels (no words by
// accident) and no 0, 1 or 3, which read like o, l and e.
func GenerateName(base string) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	const maxBase = 63 - 5
	if len(base) > maxBase {
		base = base[:maxBase]
	}
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return base + string(b)
}
