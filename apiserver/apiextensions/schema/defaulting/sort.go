package defaulting

import "sort"

func sortStrings(s []string) { sort.Strings(s) }
