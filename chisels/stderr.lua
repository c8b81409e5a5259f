--[[
stderr.lua - print what processes write to their standard error (fd 2).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Print the standard error of any process on screen. Combine this script with a filter to limit the output to a specific process or pid. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown. (Blue represents a process running within a container, and Green represents a host process)"
short_description = "Print stderr of processes"
category = "I/O"

args = {
	{ name = "disable_color", description = "Set to 'disable_colors' if you want to disable color output", argtype = "string", optional = true },
}

local terminal = require "ansiterminal"
terminal.enable_color(true)

local fdata, fcname, fcid
local with_container = false

function on_set_arg(name, val)
	if name == "disable_color" and val == "disable_color" then
		terminal.enable_color(false)
		return true
	end
	return false
end

function on_init()
	fdata = chisel.request_field("evt.rawarg.data")
	fcname = chisel.request_field("container.name")
	fcid = chisel.request_field("container.id")
	with_container = sysdig.is_print_container_data()
	sysdig.set_snaplen(2000)
	chisel.set_filter("fd.num=2 and evt.is_io=true")
	return true
end

function on_event()
	local data = evt.field(fdata)
	if data == nil then
		return true
	end
	if not with_container then
		print(data)
		return true
	end
	local cname = evt.field(fcname)
	local colour = cname == "host" and terminal.green or terminal.blue
	print(colour .. string.format("%-20.20s %-20.20s %s", tostring(evt.field(fcid)), tostring(cname), data))
	return true
end
