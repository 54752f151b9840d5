package controllers

// KnownControllers is the table of every controller the manager can run,
// by the name --controllers uses.
func KnownControllers() map[string]InitFunc {
	return map[string]InitFunc{}
}
