-- v_cpus.lua - csysdig view "CPUs" (sysdig-c).
-- One row per CPU core: how many events and system calls it ran and the
-- time spent in them.  (sysdig 0.29.3 ships this view disabled.)
view_info = {
	id = "cpus",
	name = "CPUs",
	description = "CPU cores with the events, system calls and system call time each one handled.",
	tips = {"An unbalanced load shows as one core with many more events than the others."},
	tags = {"Default"},
	view_type = "table",
	applies_to = {"", "container.id", "proc.pid", "thread.tid", "proc.name"},
	filter = "evt.dir=<",
	use_defaults = true,
	drilldown_target = "procs",
	columns = {
		{ name = "NA", field = "evt.cpu", is_key = true },
		{ name = "CORE", field = "evt.cpu", colsize = 8, description = "CPU core." },
		{ name = "EVENTS", field = "evt.count", colsize = 10, aggregation = "TIME_AVG", is_sorting = true, description = "Events per second on this core." },
		{ name = "ERRORS", field = "evt.count.error", colsize = 10, aggregation = "TIME_AVG", description = "Failed calls per second on this core." },
		{ name = "TIME", field = "evt.latency", colsize = 10, aggregation = "SUM", description = "Time spent in system calls on this core." },
	},
}
