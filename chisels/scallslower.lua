--[[
scallslower.lua - trace system calls slower than a threshold in
milliseconds.  Part of the sysdig-c chisel library (same name, arguments and
output as sysdig 0.29.3's chisel); the body is in slower.lua.
--]]

description = "Trace syscalls slower than a threshold milliseconds. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown. (Blue represents a process running within a container, and Green represents a host process)"
short_description = "Trace slow syscalls"
category = "Performance"

args = {
	{ name = "min_ms", description = "Minimum milliseconds before which a syscall should complete", argtype = "int", optional = false },
	{ name = "disable_color", description = "Set to 'disable_colors' if you want to disable color output", argtype = "string", optional = true },
}

require("slower").install({ filter = "", io = false })
