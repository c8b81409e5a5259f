-- v_syscall_procs.lua - csysdig view "Syscall Callers" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v syscall_procs` prints the same rows.
view_info = {
	id = "syscall_procs",
	name = "Syscall Callers",
	description = "Processes by the number of system calls they make and the time spent in them.",
	tags = {"Default"},
	view_type = "table",
	applies_to = {"evt.type"},
	filter = "syscall.type exists",
	use_defaults = true,
	columns = {
		{ name = "NA", field = "proc.pid", is_key = true },
		{ name = "CALLS/S", field = "evt.count", colsize = 10, aggregation = "TIME_AVG", is_sorting = true, description = "Events (per second where the column is a rate)." },
		{ name = "TIME", field = "evt.latency", colsize = 10, aggregation = "SUM", description = "Time spent in the calls." },
		{ name = "Container", field = "container.name", colsize = 20, tags = {"containers"}, description = "Container name (host for processes outside containers)." },
		{ name = "Command", field = "proc.exeline", colsize = 0, aggregation = "MAX", description = "Command line of the process." },
	},
}
