-- v_backlog.lua - csysdig view "Socket Queues" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v backlog` prints the same rows.
view_info = {
	id = "backlog",
	name = "Socket Queues",
	description = "Listen queue of every server socket: how many connections wait to be accepted, out of how many the socket allows.",
	tips = {"A backlog close to its limit means the server accepts connections more slowly than they arrive."},
	tags = {"Default"},
	view_type = "table",
	applies_to = {"", "proc.pid", "proc.name", "fd.sport", "fd.sproto"},
	filter = "evt.type=accept",
	drilldown_target = "connections",
	use_defaults = true,
	is_root = false,
	columns = {
		{ name = "NA", field = "fd.sport", is_key = true },
		{ name = "PID", field = "proc.pid", colsize = 15, description = "Process id." },
		{ name = "PORT", field = "fd.sport", colsize = 15, description = "Server port." },
		{ name = "BACKLOG", field = "evt.arg[3]", colsize = 15, aggregation = "AVG", is_sorting = true, description = "Argument 4 of the event." },
		{ name = "BACKLOG_PCT", field = "evt.arg[2]", colsize = 15, aggregation = "AVG", description = "Argument 3 of the event." },
		{ name = "BACKLOG_MAX", field = "evt.arg[4]", colsize = 15, description = "Argument 5 of the event." },
		{ name = "PROC", field = "proc.name", colsize = 50, description = "Process name." },
	},
}
