--[[
topcontainers_file.lua - a top-N table, implemented by table_generator.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Shows the top containers in terms of total (in+out) bytes to disk."
short_description = "Top containers by R+W disk bytes"
category = "I/O"

args = {}

-- grouping done by the hidden table_generator chisel
local VALUE, VALUE_DESC, FILTER = "evt.rawarg.res", "Bytes", "fd.type=file and evt.is_io=true and container.name!=host"
local TOP, UNITS = "10", "bytes"

function on_set_arg(name, val)
	return false
end

function on_init()
	local keys, descs = "container.name", "container.name"
	chisel.exec("table_generator", keys, descs, VALUE, VALUE_DESC, FILTER, TOP, UNITS)
	return true
end
