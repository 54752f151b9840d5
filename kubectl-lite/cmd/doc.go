// Package cmd is kubectl-lite: a kubectl small enough to read in an
// afternoon, built only on kubeloop/client and kubeloop/api, with kubectl's
// output and flags so habits carry over. It is the "K" of spine arrow 1
// (docs/architecture.md): every command is a few HTTP calls through client/;
// watch-spine prints spine arrows 1–10 for one ReplicaSet as seen from
// outside. Its size is kept by hack/linebudget.sh (budget 1,500 lines).
//
//	kubectl-lite ──client/ (HTTP)──▶ apiserver ──▶ watchcache ──▶ store ──▶ etcd
//
// The commands and their kubectl counterparts (staging/src/k8s.io/kubectl/pkg/cmd
// at v1.37.2): get and events (get.go: get/get.go, events/events.go) ask the
// server for a Table (client.AcceptTable) and only lay out its rows
// (cli-runtime's printers/tableprinter.go); describe (describe.go:
// kubectl/pkg/describe/describe.go); create and apply from files (apply.go:
// create/create.go, apply/apply.go, apply/patcher.go, apimachinery's
// jsonmergepatch CreateThreeWayJSONMergePatch); delete, scale, label,
// annotate, edit (change.go: delete/delete.go, scale/scale.go,
// label/label.go, edit/edit.go); watch-spine (spine.go: no counterpart);
// the start of every command, TYPE NAME resolved to a client, and its
// errors and exit codes (root.go: cli-runtime's resource.Builder,
// cmd/util/helpers.go CheckErr).
//
// What it leaves out, and why that is fine for learning: discovery and the
// RESTMapper (every kind is in api.Builtin()); strategic merge patch (apply
// is client-side with a JSON merge patch, so lists are replaced whole),
// server-side apply, --prune, --dry-run, --validate (manifests go as written,
// for the server's fieldValidation=Strict) and diff; -o jsonpath and
// custom-columns, sorting, --field-selector, --timeout, delete --grace-period
// and --all; contexts and credentials other than the kubeconfig's current
// ones; logs, exec, port-forward, rollout, config, auth and plugins. -o yaml,
// json and name read the objects from a Table's rows (includeObject=Object),
// not the objects themselves; -w prints table rows and stops when the server
// ends the watch (kubectl re-lists); edit does not reopen the editor on errors.
package cmd
