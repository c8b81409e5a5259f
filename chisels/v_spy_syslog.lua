-- v_spy_syslog.lua - csysdig view "Spy Syslog" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v spy_syslog` prints the same rows.
view_info = {
	id = "spy_syslog",
	name = "Spy Syslog",
	description = "Messages written to syslog (/dev/log), one line each, with facility and severity.",
	tags = {"Default"},
	view_type = "list",
	applies_to = {"", "container.id", "proc.pid", "thread.nametid", "proc.name", "thread.tid", "fd.sport", "fd.sproto", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "fd.name contains /dev/log and evt.is_io_write=true and evt.dir=< and evt.failed=false",
	columns = {
		{ name = "PID", field = "proc.pid", colsize = 8, description = "Process id." },
		{ name = "PROC", field = "proc.name", colsize = 8, description = "Process name." },
		{ name = "FAC", field = "syslog.facility.str", colsize = 8, description = "Syslog facility." },
		{ name = "SEV", field = "syslog.severity.str", colsize = 8, description = "Syslog severity." },
		{ name = "Container", field = "container.name", colsize = 20, tags = {"containers"}, description = "Container name (host for processes outside containers)." },
		{ name = "MESSAGE", field = "syslog.message", colsize = 0, description = "The message." },
	},
}
