package informer

import "kubeloop/deltafifo"

// DeletedFinalStateUnknown is what OnDelete receives when the informer
// learned of a deletion only from a re-list: the key and the last state it
// had. It is deltafifo's type, re-exported so controllers need not import
// the queue below the informer (client-go keeps both in tools/cache).
type DeletedFinalStateUnknown = deltafifo.DeletedFinalStateUnknown
