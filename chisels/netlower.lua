--[[
netlower.lua - trace network I/O slower than a threshold (0 = all network
I/O).  Part of the sysdig-c chisel library (same name, arguments and output
as sysdig 0.29.3's chisel); the body is in slower.lua.
--]]

description = "Trace network I/O slower than a threshold, or all network I/O. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown. (Blue represents a process running within a container, and Green represents a host process)"
short_description = "Trace slow network I/0"
category = "Performance"

args = {
	{ name = "min_ms", description = "Minimum millisecond threshold for showing network I/O", argtype = "int", optional = false },
	{ name = "disable_color", description = "Set to 'disable_colors' if you want to disable color output", argtype = "string", optional = true },
}

require("slower").install({ filter = "evt.is_io=true and (fd.type=ipv4 or fd.type=ipv6)", io = true, skip_dev = false })
