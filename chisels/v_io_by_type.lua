-- v_io_by_type.lua - csysdig view "I/O by Type" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v io_by_type` prints the same rows.
view_info = {
	id = "io_by_type",
	name = "I/O by Type",
	description = "I/O by kind of file descriptor (file, IPv4, unix socket, pipe...), with bytes, operations and time spent.",
	tags = {"Default", "wsysdig"},
	view_type = "table",
	applies_to = {"", "container.id", "proc.pid", "thread.nametid", "proc.name", "thread.tid", "fd.sport", "fd.sproto", "evt.res", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	drilldown_target = "procs",
	use_defaults = true,
	columns = {
		{ name = "NA", field = "fd.type", is_key = true },
		{ name = "BPS IN", field = "evt.buflen.in", colsize = 12, aggregation = "TIME_AVG", description = "Bytes read." },
		{ name = "BPS OUT", field = "evt.buflen.out", colsize = 12, aggregation = "TIME_AVG", description = "Bytes written." },
		{ name = "IOPS", field = "evt.count", colsize = 9, aggregation = "TIME_AVG", is_sorting = true, description = "Events (per second where the column is a rate)." },
		{ name = "TIME", field = "evt.latency", colsize = 9, aggregation = "SUM", description = "Time spent in the calls." },
		{ name = "I/O Type", field = "fd.type", colsize = 0, aggregation = "SUM", description = "Kind of file descriptor." },
	},
}
