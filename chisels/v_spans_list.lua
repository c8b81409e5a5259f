-- v_spans_list.lua - csysdig view "Spans List" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v spans_list` prints the same rows.
view_info = {
	id = "spans_list",
	name = "Spans List",
	description = "Tracer spans, one line each, with their tags and duration.",
	tags = {"Default"},
	view_type = "table",
	applies_to = {"span.tag", "span.id", "span.time", "span.parenttime", "container.id", "proc.pid", "thread.nametid", "proc.name", "thread.tid", "fd.directory", "fd.containerdirectory", "evt.res", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "span.ntags>=%depth+1",
	drilldown_target = "spans_list",
	use_defaults = true,
	drilldown_increase_depth = true,
	columns = {
		{ name = "NA", field = "span.rawtime", is_key = true, filterfield = "span.rawparenttime", filter_in_child_only = true },
		{ name = "ID", field = "span.id", colsize = 10, description = "Span id." },
		{ name = "TIME", field = "span.time", colsize = 19, description = "Span start time." },
		{ name = "DURATION", field = "span.duration.fortag[%depth]", colsize = 10, aggregation = "AVG", is_sorting = true, description = "Time spent in spans with this tag." },
		{ name = "TAG", field = "span.tag[%depth]", colsize = 32, aggregation = "SUM", description = "Span tag at this depth." },
		{ name = "ARGS", field = "span.enterargs", colsize = 256, aggregation = "SUM", description = "Span arguments." },
	},
}
