-- v_errors.lua - csysdig view "Errors" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v errors` prints the same rows.
view_info = {
	id = "errors",
	name = "Errors",
	description = "Failed system calls grouped by error code, with the count of each.",
	tips = {"Enter on an error lists the processes that got it."},
	tags = {"Default", "wsysdig"},
	view_type = "table",
	applies_to = {"", "container.id", "proc.pid", "thread.nametid", "proc.name", "thread.tid", "fd.sport", "fd.sproto", "fd.directory", "fd.containerdirectory", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "evt.res != SUCCESS",
	drilldown_target = "procs_errors",
	use_defaults = true,
	columns = {
		{ name = "NA", field = "evt.res", is_key = true },
		{ name = "COUNT", field = "evt.count", colsize = 12, aggregation = "SUM", is_sorting = true, description = "Events (per second where the column is a rate)." },
		{ name = "ERROR", field = "evt.res", colsize = 0, description = "Result (error code)." },
	},
}
