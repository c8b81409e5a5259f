--[[
topports_server.lua - a top-N table, implemented by table_generator.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Shows the top TCP/UDP server ports in terms of total (in+out) bandwidth. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown."
short_description = "Top TCP/UDP server ports by R+W bytes"
category = "Net"

args = {}

-- grouping done by the hidden table_generator chisel
local VALUE, VALUE_DESC, FILTER = "evt.rawarg.res", "Bytes", "(fd.type=ipv4 or fd.type=ipv6) and evt.is_io=true"
local TOP, UNITS = "100", "bytes"

function on_set_arg(name, val)
	return false
end

function on_init()
	local keys, descs = "fd.sport", "Srv Port"
	if sysdig.is_print_container_data() then
		keys, descs = "fd.sport,container.name", "Srv Port,container.name"
	end
	chisel.exec("table_generator", keys, descs, VALUE, VALUE_DESC, FILTER, TOP, UNITS)
	return true
end
