--[[
topfiles_errors.lua - a top-N table, implemented by table_generator.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Shows the top files in terms of I/O errors. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown."
short_description = "Top files by number of errors"
category = "Errors"

args = {}

-- grouping done by the hidden table_generator chisel
local VALUE, VALUE_DESC, FILTER = "evt.count", "#Errors", "fd.type=file and evt.failed=true"
local TOP, UNITS = "100", "none"

function on_set_arg(name, val)
	return false
end

function on_init()
	local keys, descs = "fd.name", "Filename"
	if sysdig.is_print_container_data() then
		keys, descs = "fd.name,container.name", "Filename,container.name"
	end
	chisel.exec("table_generator", keys, descs, VALUE, VALUE_DESC, FILTER, TOP, UNITS)
	return true
end
