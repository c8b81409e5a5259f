--[[
fileslower.lua - trace file I/O slower than a threshold (0 = all file I/O;
files under /dev/ are skipped).  Part of the sysdig-c chisel library (same
name, arguments and output as sysdig 0.29.3's chisel); the body is in
slower.lua.
--]]

description = "Trace file I/O slower than a threshold, or all file I/O. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown. (Blue represents a process running within a container, and Green represents a host process)"
short_description = "Trace slow file I/O"
category = "Performance"

args = {
	{ name = "min_ms", description = "Minimum millisecond threshold for showing file I/O", argtype = "int", optional = false },
	{ name = "disable_color", description = "Set to 'disable_colors' if you want to disable color output", argtype = "string", optional = true },
}

require("slower").install({ filter = "evt.is_io=true and fd.type=file", io = true, skip_dev = true })
