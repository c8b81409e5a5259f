--[[
topcontainers_net.lua - a top-N table, implemented by table_generator.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Sorted list of containers that use the most network bandwidth."
short_description = "Top containers by network I/O"
category = "Net"

args = {}

-- grouping done by the hidden table_generator chisel
local VALUE, VALUE_DESC, FILTER = "evt.rawarg.res", "Bytes", "(fd.type=ipv4 or fd.type=ipv6) and evt.is_io=true and container.name!=host"
local TOP, UNITS = "100", "bytes"

function on_set_arg(name, val)
	return false
end

function on_init()
	local keys, descs = "container.name", "container.name"
	chisel.exec("table_generator", keys, descs, VALUE, VALUE_DESC, FILTER, TOP, UNITS)
	return true
end
