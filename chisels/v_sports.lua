-- v_sports.lua - csysdig view "Server Ports" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v sports` prints the same rows.
view_info = {
	id = "sports",
	name = "Server Ports",
	description = "Server ports with the traffic they receive and send.",
	tips = {"Enter on a port shows the connections to it."},
	tags = {"wsysdig"},
	view_type = "table",
	applies_to = {"", "container.id", "proc.pid", "thread.nametid", "thread.tid", "proc.name", "evt.res", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "(fd.type=ipv4 or fd.type=ipv6) and fd.name!=''",
	drilldown_target = "connections",
	use_defaults = true,
	columns = {
		{ name = "NA", field = "fd.sport", is_key = true },
		{ name = "SPORT", field = "fd.sport", colsize = 8, description = "Server port." },
		{ name = "BPS IN", field = "evt.buflen.net.in", colsize = 12, aggregation = "TIME_AVG", is_sorting = true, description = "Network bytes received." },
		{ name = "BPS OUT", field = "evt.buflen.net.out", colsize = 12, aggregation = "TIME_AVG", description = "Network bytes sent." },
		{ name = "IO CALLS", field = "evt.count", colsize = 12, aggregation = "SUM", description = "Events (per second where the column is a rate)." },
	},
	actions = {
		{ hotkey = "t", command = "tcpdump -niany port %fd.sport", description = "tcpdump port", wait_finish = false },
	},
}
