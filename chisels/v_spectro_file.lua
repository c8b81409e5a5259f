-- v_spectro_file.lua - csysdig view "Spectrogram-File" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v spectro_file` prints the same rows.
view_info = {
	id = "spectro_file",
	name = "Spectrogram-File",
	description = "File I/O latency over time, as a spectrogram.",
	view_type = "spectrogram",
	applies_to = {"", "container.id", "proc.pid", "thread.nametid", "thread.tid", "proc.name", "evt.res", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name", "fd.name", "fd.containername", "fd.directory", "fd.containerdirectory", "fd.containerdirectory"},
	filter = "evt.dir=< and fd.type=file",
	use_defaults = false,
	columns = {
		{ name = "NA", field = "evt.latency.quantized", is_key = true },
		{ name = "LATENCY", field = "evt.latency.quantized", description = "Latency range." },
		{ name = "COUNT", field = "evt.count", colsize = 8, aggregation = "SUM", description = "Events (per second where the column is a rate)." },
	},
}
