-- v_traces_summary.lua - csysdig view "Traces Summary" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v traces_summary` prints the same rows.
view_info = {
	id = "traces_summary",
	name = "Traces Summary",
	description = "Tracer spans grouped by tag, with counts and times.",
	tags = {"Default"},
	view_type = "table",
	spectro_type = "tracers",
	applies_to = {"", "container.id", "proc.pid", "thread.nametid", "proc.name", "thread.tid", "fd.directory", "fd.containerdirectory", "evt.res", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "span.ntags>=%depth+1",
	drilldown_target = "spans_summary",
	use_defaults = true,
	drilldown_increase_depth = true,
	columns = {
		{ name = "NA", field = "span.tag[%depth]", is_key = true },
		{ name = "HITS", field = "span.count.fortag[%depth]", colsize = 10, aggregation = "SUM", is_sorting = true, description = "Spans with this tag." },
		{ name = "AVG TIME", field = "span.duration.fortag[%depth]", colsize = 10, aggregation = "AVG", description = "Time spent in spans with this tag." },
		{ name = "MIN TIME", field = "span.duration.fortag[%depth]", colsize = 10, aggregation = "MIN", description = "Time spent in spans with this tag." },
		{ name = "MAX TIME", field = "span.duration.fortag[%depth]", colsize = 10, aggregation = "MAX", description = "Time spent in spans with this tag." },
		{ name = "CHD HITS", field = "span.childcount.fortag[%depth]", colsize = 10, aggregation = "SUM", description = "Child spans." },
		{ name = "TAG", field = "span.tag[%depth]", colsize = 256, aggregation = "SUM", description = "Span tag at this depth." },
	},
}
