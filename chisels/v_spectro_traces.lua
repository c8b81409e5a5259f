-- v_spectro_traces.lua - csysdig view "Traces Spectrogram" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v spectro_traces` prints the same rows.
view_info = {
	id = "spectro_traces",
	name = "Traces Spectrogram",
	description = "Tracer span latency over time, as a spectrogram.",
	view_type = "spectrogram",
	applies_to = {"", "span.tag", "span.id", "container.id", "proc.pid", "thread.nametid", "thread.tid", "proc.name", "evt.res", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name", "fd.name", "fd.containername", "fd.directory", "fd.containerdirectory", "fd.containerdirectory"},
	filter = "span.ntags=%depth+1",
	drilldown_target = "spans_list",
	use_defaults = false,
	propagate_filter = false,
	columns = {
		{ name = "NA", field = "span.duration.quantized", is_key = true },
		{ name = "LATENCY", field = "span.duration.quantized", description = "Duration range." },
		{ name = "COUNT", field = "evt.count", aggregation = "SUM", description = "Events (per second where the column is a rate)." },
	},
}
