-- v_syscalls.lua - csysdig view "System Calls" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v syscalls` prints the same rows.
view_info = {
	id = "syscalls",
	name = "System Calls",
	description = "System calls by type: how many per second and how much time they take.",
	tips = {"Enter on a system call shows who makes it."},
	tags = {"Default", "wsysdig"},
	view_type = "table",
	applies_to = {"", "container.id", "proc.pid", "thread.nametid", "proc.name", "thread.tid", "fd.sport", "fd.sproto", "fd.name", "fd.containername", "fd.directory", "fd.containerdirectory", "evt.res", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "syscall.type exists",
	drilldown_target = "syscall_procs",
	use_defaults = true,
	columns = {
		{ name = "NA", field = "evt.type", is_key = true },
		{ name = "CALLS/S", field = "evt.count", colsize = 10, aggregation = "TIME_AVG", is_sorting = true, description = "Events (per second where the column is a rate)." },
		{ name = "TOT TIME", field = "evt.latency", colsize = 10, aggregation = "SUM", description = "Time spent in the calls." },
		{ name = "AVG TIME", field = "evt.latency", colsize = 10, aggregation = "AVG", description = "Time spent in the calls." },
		{ name = "SYSCALL", field = "evt.type", colsize = 32, aggregation = "SUM", description = "System call or event name." },
	},
}
