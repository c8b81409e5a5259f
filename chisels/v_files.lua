-- v_files.lua - csysdig view "Files" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v files` prints the same rows.
view_info = {
	id = "files",
	name = "Files",
	description = "Files by the I/O done on them: bytes read and written, operations, opens and errors.",
	tips = {"Enter on a file shows which processes use it."},
	tags = {"Default", "wsysdig"},
	view_type = "table",
	applies_to = {"", "container.id", "proc.pid", "thread.nametid", "proc.name", "thread.tid", "fd.sport", "fd.sproto", "fd.directory", "fd.containerdirectory", "fd.containerdirectory", "evt.res", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "(fd.type=file or fd.type=directory) and fd.name!=''",
	drilldown_target = "procs",
	use_defaults = true,
	columns = {
		{ name = "NA", field = "fd.name", is_key = true, tags = {"default"} },
		{ name = "NA", field = "fd.containername", is_key = true, tags = {"containers"} },
		{ name = "BYTES IN", field = "evt.buflen.file.in", colsize = 12, aggregation = "SUM", description = "File bytes read." },
		{ name = "BYTES OUT", field = "evt.buflen.file.out", colsize = 12, aggregation = "SUM", description = "File bytes written." },
		{ name = "OPS", field = "evt.count.exit", colsize = 9, aggregation = "SUM", is_sorting = true, description = "Completed calls." },
		{ name = "OPENS", field = "evt.type.is.3", colsize = 9, aggregation = "SUM", description = "Opens." },
		{ name = "ERRORS", field = "evt.count.error", colsize = 9, aggregation = "SUM", description = "Failed calls." },
		{ name = "Container", field = "container.name", colsize = 20, tags = {"containers"}, description = "Container name (host for processes outside containers)." },
		{ name = "FILENAME", field = "fd.name", colsize = 0, description = "File or connection name." },
	},
	actions = {
		{ hotkey = "l", command = "less %fd.name", description = "less file", wait_finish = false },
	},
}
