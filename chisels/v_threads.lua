-- v_threads.lua - csysdig view "Threads" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v threads` prints the same rows.
view_info = {
	id = "threads",
	name = "Threads",
	description = "Threads with their CPU, file and network use.",
	tags = {"Default", "wsysdig"},
	view_type = "table",
	applies_to = {"", "proc.pid", "thread.nametid", "proc.name", "container.id", "fd.sport", "fd.sproto", "fd.name", "fd.containername", "fd.directory", "fd.containerdirectory", "evt.res", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "evt.type!=switch",
	drilldown_target = "files",
	use_defaults = true,
	is_root = true,
	columns = {
		{ name = "NA", field = "thread.tid", is_key = true },
		{ name = "PID", field = "proc.pid", colsize = 8, description = "Process id." },
		{ name = "TID", field = "thread.tid", colsize = 8, description = "Thread id." },
		{ name = "VPID", field = "proc.vpid", colsize = 8, tags = {"containers"}, description = "Process id inside its container." },
		{ name = "VTID", field = "thread.vtid", colsize = 8, tags = {"containers"}, description = "Thread id inside its container." },
		{ name = "CPU", field = "thread.cpu", colsize = 8, aggregation = "AVG", is_sorting = true, description = "CPU use, in percent of one core." },
		{ name = "FILE", field = "evt.buflen.file", colsize = 8, aggregation = "TIME_AVG", description = "File bytes read and written, per second." },
		{ name = "NET", field = "evt.buflen.net", colsize = 8, aggregation = "TIME_AVG", description = "Network bytes read and written, per second." },
		{ name = "Container", field = "container.name", colsize = 20, tags = {"containers"}, description = "Container name (host for processes outside containers)." },
		{ name = "Command", field = "proc.exeline", colsize = 0, aggregation = "MAX", description = "Command line of the process." },
	},
}
