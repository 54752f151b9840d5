// Package ratelimiter is exercise 1: the per-item exponential backoff that
// decides how long a failed workqueue key waits before its next attempt.
// README.md says what to build and how the grader runs; limiter.go is the
// file to complete.
package ratelimiter
