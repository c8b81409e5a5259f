-- v_incoming_connections.lua - csysdig view "New Connections" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v incoming_connections` prints the same rows.
view_info = {
	id = "incoming_connections",
	name = "New Connections",
	description = "Connections accepted by servers on this machine, one line per accept.",
	tags = {"Default"},
	view_type = "list",
	applies_to = {"", "container.id", "proc.pid", "thread.nametid", "thread.tid", "proc.name", "fd.name", "fd.containername", "fd.sport", "fd.sproto", "fd.dport", "fd.port", "fd.lport", "fd.rport", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "evt.type=accept and evt.dir=< and evt.failed=false",
	columns = {
		{ name = "TIME", field = "evt.time", colsize = 19, description = "Time of the event." },
		{ name = "Connection", field = "fd.name", colsize = 40, description = "File or connection name." },
		{ name = "Container", field = "container.name", colsize = 20, tags = {"containers"}, description = "Container name (host for processes outside containers)." },
		{ name = "Command", field = "proc.exeline", colsize = 0, aggregation = "MAX", description = "Command line of the process." },
	},
}
