--[[
fdbytes_by.lua - I/O bytes grouped by any field, implemented by table_generator
(through top_table.lua).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Groups FD activity based on the given filter field, and returns the key that generated the most input+output bytes. For example, this script can be used to list the processes or TCP ports that generated most traffic."
short_description = "I/O bytes, aggregated by an arbitrary filter field"
category = "I/O"

args = {
	{ name = "key", description = "The filter field used for grouping", argtype = "string" },
}

require("top_table").install_by_key({ "evt.rawarg.res", "Bytes", "evt.is_io=true and evt.failed=false", "30", "bytes" })
