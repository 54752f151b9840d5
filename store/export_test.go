package store

// Test hooks for handoff.go.

// SetHandoffLimit bounds the objects kept for watches; negative turns
// the handoff off.
func SetHandoffLimit(s *Store, n int) { s.written.limit = n }

// PendingHandoffs is how many written objects wait for a watch.
func PendingHandoffs(s *Store) int { return s.written.pending() }
