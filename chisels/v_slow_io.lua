-- v_slow_io.lua - csysdig view "Slow File I/O" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v slow_io` prints the same rows.
view_info = {
	id = "slow_io",
	name = "Slow File I/O",
	description = "File reads and writes that took more than 1 ms, one line each.",
	tags = {"Default", "wsysdig"},
	view_type = "table",
	applies_to = {"", "container.id", "proc.pid", "thread.nametid", "thread.tid", "proc.name", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "evt.is_io=true and fd.type=file and (not fd.name contains '/dev/') and evt.latency>1000000",
	use_defaults = true,
	columns = {
		{ name = "NA", field = "evt.rawtime", is_key = true },
		{ name = "TIME", field = "evt.time", colsize = 12, description = "Time of the event." },
		{ name = "LATENCY", field = "evt.latency", colsize = 8, is_sorting = true, description = "Time spent in the calls." },
		{ name = "FILENAME", field = "fd.name", colsize = 32, description = "File or connection name." },
		{ name = "Container", field = "container.name", colsize = 20, tags = {"containers"}, description = "Container name (host for processes outside containers)." },
		{ name = "PID", field = "proc.pid", colsize = 12, description = "Process id." },
		{ name = "Command", field = "proc.exeline", colsize = 0, aggregation = "MAX", description = "Command line of the process." },
	},
}
