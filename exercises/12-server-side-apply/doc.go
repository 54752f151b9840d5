// Package apply is exercise 12: field ownership with server-side apply. An
// operator keeps a Deployment as its WebApp configuration says, sharing it
// with others: a user who scales it, a labeler that adds labels. It
// applies only the fields it has an opinion on (an apply-patch+yaml PATCH
// with its fieldManager), so the apiserver records exactly those as its
// own in metadata.managedFields, merges them with everybody else's, drops
// those it stops sending, and answers 409 Conflict rather than let it
// overwrite a field another manager set. webapp.go is given; apply.go,
// the configuration and the apply, is the file to complete. README.md
// says what to build and how the grader runs.
package apply
