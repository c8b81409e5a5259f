--[[
fdtime_by.lua - time spent in FD I/O grouped by any field, implemented by table_generator
(through top_table.lua).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Groups FD activity based on the given filter field, and returns the keys where most time was spent. For example, this script can be used to list the processes or files that caused the biggest I/O latency."
short_description = "FD time group by"
category = "I/O"

args = {
	{ name = "key", description = "The filter field used for grouping", argtype = "string" },
}

require("top_table").install_by_key({ "evt.latency", "Time", "evt.is_io=true", "10", "time" })
