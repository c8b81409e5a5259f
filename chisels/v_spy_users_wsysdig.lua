-- v_spy_users_wsysdig.lua - csysdig view "Spy Users" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v spy_users_wsysdig` prints the same rows.
view_info = {
	id = "spy_users_wsysdig",
	name = "Spy Users",
	description = "Commands run by interactive users, for the web front end.",
	tags = {"Default", "wsysdig"},
	view_type = "table",
	applies_to = {"", "container.id", "proc.pid", "thread.nametid", "thread.tid", "proc.name", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "((evt.type=execve and evt.dir=<) or (evt.type=chdir and evt.dir=< and proc.name contains sh and not proc.name contains sshd)) and evt.failed=false",
	drilldown_target = "threads",
	use_defaults = true,
	propagate_filter = false,
	columns = {
		{ name = "NA", field = "thread.nametid", is_key = true },
		{ name = "TIME", field = "evt.time", colsize = 12, is_sorting = true, description = "Time of the event." },
		{ name = "USER", field = "user.name", colsize = 12, description = "User running the process." },
		{ name = "SHELL", field = "proc.ppid", colsize = 8, description = "Parent process id." },
		{ name = "Container", field = "container.name", colsize = 20, tags = {"containers"}, description = "Container name (host for processes outside containers)." },
		{ name = "Command", field = "proc.exeline", colsize = 0, aggregation = "MAX", description = "Command line of the process." },
	},
}
