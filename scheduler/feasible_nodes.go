package scheduler

// How many feasible nodes a cycle looks for before it stops filtering.
// With tens of nodes every node is checked; in a big cluster the cycle
// stops once it has found "enough" nodes that fit, and scores only those:
// checking and scoring a thousand nodes for every pod buys a slightly
// better score at a thousand times the work. The next cycle starts where
// this one stopped, so every node gets its turn. Kubernetes:
// pkg/scheduler/schedule_one.go, numFeasibleNodesToFind and
// findNodesThatPassFilters (nextStartNodeIndex).
const (
	// minFeasibleNodesToFind: a cluster this small, or a search this
	// short, is checked in full.
	minFeasibleNodesToFind = 100
	// minFeasibleNodesPercentageToFind is the floor of the adaptive
	// percentage.
	minFeasibleNodesPercentageToFind = 5
)

// numFeasibleNodesToFind is how many fitting nodes a cycle over allNodes
// nodes looks for. percentage 0 is Kubernetes' adaptive default: 50 % less
// one point per 125 nodes (42 % of 1000 nodes), never under 5 %; 100
// checks every node.
func numFeasibleNodesToFind(percentage int32, allNodes int32) int32 {
	if allNodes < minFeasibleNodesToFind {
		return allNodes
	}
	if percentage == 0 {
		percentage = max(50-allNodes/125, minFeasibleNodesPercentageToFind)
	}
	return max(allNodes*percentage/100, minFeasibleNodesToFind)
}
