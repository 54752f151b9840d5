package conformance
import (
 _ "k8s.io/client-go/util/workqueue"
 _ "k8s.io/client-go/tools/cache"
 _ "k8s.io/client-go/kubernetes"
 _ "k8s.io/client-go/tools/leaderelection"
)
