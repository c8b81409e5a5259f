-- v_file_opens.lua - csysdig view "File Opens List" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v file_opens` prints the same rows.
view_info = {
	id = "file_opens",
	name = "File Opens List",
	description = "Every successful or failed open of a file, one line each, in time order.",
	tips = {"Useful to see which files a program touches."},
	tags = {"Default"},
	view_type = "list",
	applies_to = {"", "container.id", "proc.pid", "thread.nametid", "proc.name", "thread.tid", "fd.sport", "fd.sproto", "fd.name", "fd.containername", "fd.directory", "fd.containerdirectory", "evt.res", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "evt.type=open and evt.dir=<",
	columns = {
		{ name = "TIME", field = "evt.time", colsize = 19, description = "Time of the event." },
		{ name = "RES", field = "evt.res", colsize = 8, description = "Result (error code)." },
		{ name = "FILE", field = "fd.name", colsize = 40, description = "File or connection name." },
		{ name = "Container", field = "container.name", colsize = 20, tags = {"containers"}, description = "Container name (host for processes outside containers)." },
		{ name = "Command", field = "proc.exeline", colsize = 0, aggregation = "MAX", description = "Command line of the process." },
	},
	actions = {
		{ hotkey = "l", command = "less %fd.name", description = "less file", wait_finish = false },
	},
}
