-- v_procs_fd_usage.lua - csysdig view "Processes FD Usage" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v procs_fd_usage` prints the same rows.
view_info = {
	id = "procs_fd_usage",
	name = "Processes FD Usage",
	description = "Processes by open file descriptors, against their limit.",
	tips = {"A process close to its fd limit will start failing to open files or sockets."},
	tags = {"Default"},
	view_type = "table",
	applies_to = {"", "container.id", "fd.name", "fd.containername", "fd.sport", "fd.sproto", "evt.type", "fd.directory", "fd.containerdirectory", "fd.type", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "evt.type!=switch",
	drilldown_target = "io_by_type",
	use_defaults = true,
	is_root = true,
	columns = {
		{ name = "NA", field = "proc.pid", is_key = true },
		{ name = "PID", field = "proc.pid", colsize = 8, description = "Process id." },
		{ name = "VPID", field = "proc.vpid", colsize = 8, tags = {"containers"}, description = "Process id inside its container." },
		{ name = "OPEN", field = "proc.fdopencount", colsize = 8, aggregation = "MAX", is_sorting = true, description = "Open file descriptors." },
		{ name = "MAX", field = "proc.fdlimit", colsize = 8, aggregation = "MAX", description = "Maximum number of open fds." },
		{ name = "PCT", field = "proc.fdusage", colsize = 8, aggregation = "MAX", description = "Open fds as a percentage of the limit." },
		{ name = "The container this process belongs to.", field = "container.name", colsize = 20, tags = {"containers"}, description = "Container name (host for processes outside containers)." },
		{ name = "Command", field = "proc.exeline", colsize = 0, aggregation = "MAX", description = "Command line of the process." },
	},
	actions = {
		{ hotkey = "9", command = "kill -9 %proc.pid", description = "kill -9 (force)", ask_confirmation = true, wait_finish = false },
		{ hotkey = "c", command = "gcore %proc.pid", description = "dump a core file" },
		{ hotkey = "g", command = "gdb -p %proc.pid", description = "attach gdb", wait_finish = false },
		{ hotkey = "k", command = "kill %proc.pid", description = "kill", ask_confirmation = true, wait_finish = false },
		{ hotkey = "l", command = "ltrace -p %proc.pid", description = "trace library calls" },
		{ hotkey = "s", command = "gdb -p %proc.pid --batch --quiet -ex \"thread apply all bt full\" -ex \"quit\"", description = "print every thread's stack" },
	},
}
