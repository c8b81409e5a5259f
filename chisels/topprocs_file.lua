--[[
topprocs_file.lua - a top-N table, implemented by table_generator.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Shows the top processes in terms of total (in+out) bytes to disk. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown."
short_description = "Top processes by R+W disk bytes"
category = "I/O"

args = {}

-- grouping done by the hidden table_generator chisel
local VALUE, VALUE_DESC, FILTER = "evt.rawarg.res", "Bytes", "fd.type=file and evt.is_io=true"
local TOP, UNITS = "10", "bytes"

function on_set_arg(name, val)
	return false
end

function on_init()
	local keys, descs = "proc.name,proc.pid", "Process,PID"
	if sysdig.is_print_container_data() then
		keys, descs = "proc.name,proc.pid,thread.vtid,container.name", "Process,Host_pid,Container_pid,container.name"
	end
	chisel.exec("table_generator", keys, descs, VALUE, VALUE_DESC, FILTER, TOP, UNITS)
	return true
end
