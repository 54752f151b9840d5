// Package guaranteedupdate is exercise 5: the compare-and-swap loop at the
// bottom of every write to the apiserver. Read the object and its etcd
// revision, compute the new object, and write it in a transaction that
// succeeds only if the key still has that revision; when another writer
// got there first, start again from what that writer left. skeleton.go
// gives the storage's state and its encoding; update.go, GuaranteedUpdate,
// is the file to complete. README.md says what to build and how the
// grader runs.
package guaranteedupdate
