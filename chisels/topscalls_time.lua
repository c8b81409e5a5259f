--[[
topscalls_time.lua - a top-N table, implemented by table_generator.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Show the top 30 system calls in terms of time spent in each call. You can use filters to restrict this to a specific process, thread or file. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown."
short_description = "Top system calls by time"
category = "Performance"

args = {}

-- grouping done by the hidden table_generator chisel
local VALUE, VALUE_DESC, FILTER = "evt.latency", "Time", ""
local TOP, UNITS = "30", "time"

function on_set_arg(name, val)
	return false
end

function on_init()
	local keys, descs = "evt.type", "Syscall"
	if sysdig.is_print_container_data() then
		keys, descs = "evt.type,container.name", "Syscall,container.name"
	end
	chisel.exec("table_generator", keys, descs, VALUE, VALUE_DESC, FILTER, TOP, UNITS)
	return true
end
