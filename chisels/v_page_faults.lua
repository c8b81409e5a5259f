-- v_page_faults.lua - csysdig view "Page Faults" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v page_faults` prints the same rows.
view_info = {
	id = "page_faults",
	name = "Page Faults",
	description = "Page faults of every thread, minor and major.",
	tips = {"Major faults mean disk reads; many of them hint at memory pressure."},
	tags = {"Default", "wsysdig"},
	view_type = "table",
	applies_to = {"", "container.id", "fd.name", "fd.containername", "fd.sport", "fd.sproto", "evt.type", "fd.directory", "fd.containerdirectory", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "evt.type!=switch",
	drilldown_target = "errors",
	use_defaults = true,
	columns = {
		{ name = "NA", field = "proc.pid", is_key = true },
		{ name = "MAJOR", field = "thread.pfmajor", colsize = 9, aggregation = "MAX", is_sorting = true, description = "Major page faults." },
		{ name = "MINOR", field = "thread.pfminor", colsize = 9, aggregation = "MAX", description = "Minor page faults." },
		{ name = "PID", field = "proc.pid", colsize = 8, description = "Process id." },
		{ name = "VPID", field = "proc.vpid", colsize = 8, tags = {"containers"}, description = "Process id inside its container." },
		{ name = "Container", field = "container.name", colsize = 20, tags = {"containers"}, description = "Container name (host for processes outside containers)." },
		{ name = "Command", field = "proc.exeline", colsize = 0, aggregation = "MAX", description = "Command line of the process." },
	},
}
