-- v_procs_errors.lua - csysdig view "Processes Errors" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v procs_errors` prints the same rows.
view_info = {
	id = "procs_errors",
	name = "Processes Errors",
	description = "Processes with the number of failed system calls of each kind.",
	tips = {"Enter on a process shows its errors."},
	tags = {"Default", "wsysdig"},
	view_type = "table",
	applies_to = {"", "container.id", "fd.name", "fd.containername", "fd.sport", "fd.sproto", "evt.type", "fd.directory", "fd.containerdirectory", "k8s.pod.id", "k8s.rc.id", "k8s.rs.id", "k8s.svc.id", "k8s.ns.id", "marathon.app.id", "marathon.group.name", "mesos.task.id", "mesos.framework.name"},
	filter = "evt.type!=switch",
	drilldown_target = "errors",
	use_defaults = true,
	columns = {
		{ name = "NA", field = "proc.pid", is_key = true },
		{ name = "FILE", field = "evt.count.error.file", colsize = 8, aggregation = "SUM", description = "Failed file calls." },
		{ name = "NET", field = "evt.count.error.net", colsize = 8, aggregation = "SUM", description = "Failed network calls." },
		{ name = "MEMORY", field = "evt.count.error.memory", colsize = 8, aggregation = "SUM", description = "Failed memory calls." },
		{ name = "OTHER", field = "evt.count.error.other", colsize = 8, aggregation = "SUM", description = "Other failed calls." },
		{ name = "PID", field = "proc.pid", colsize = 8, description = "Process id." },
		{ name = "Container", field = "container.name", colsize = 20, tags = {"containers"}, description = "Container name (host for processes outside containers)." },
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
