--[[
topcontainers_error.lua - a top-N table, implemented by table_generator.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Shows the top container in terms of system call errors."
short_description = "Top containers by number of errors"
category = "Errors"

args = {}

-- grouping done by the hidden table_generator chisel
local VALUE, VALUE_DESC, FILTER = "evt.count", "#Errors", "evt.failed=true and container.name!=host"
local TOP, UNITS = "100", "none"

function on_set_arg(name, val)
	return false
end

function on_init()
	local keys, descs = "container.name", "container.name"
	chisel.exec("table_generator", keys, descs, VALUE, VALUE_DESC, FILTER, TOP, UNITS)
	return true
end
