--[[
echo_fds.lua - print the data read and written on FDs, coloured by direction.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Print the data read and written for any FD. Combine this script with a filter to restrict what it shows. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown. (Blue represents  [Write], and Red represents [Read] for all data except when the -pc or -pcontainer argument is used. If used the container.name and container.id will be represented as: Green [host], and Cyan [container]) Container information will contain '[]' around container.name and container.id."
short_description = "Print the data read and written by processes."
category = "I/O"

args = {
	{ name = "disable_color", description = "Set to 'disable_colors' if you want to disable color output", argtype = "string", optional = true },
}

require "common"
local terminal = require "ansiterminal"
terminal.enable_color(true)

local f = {}
local with_container = false

function on_set_arg(name, val)
	if name == "disable_color" and val == "disable_color" then
		terminal.enable_color(false)
	end
	return true
end

function on_init()
	f.isread = chisel.request_field("evt.is_io_read")
	f.res = chisel.request_field("evt.rawarg.res")
	f.fdname = chisel.request_field("fd.name")
	f.pname = chisel.request_field("proc.name")
	f.cname = chisel.request_field("container.name")
	f.cid = chisel.request_field("container.id")
	with_container = sysdig.is_print_container_data()
	sysdig.set_snaplen(2000)
	chisel.set_filter("evt.is_io=true and evt.dir=< and evt.rawres>0")
	-- the data itself is printed by the formatter after each header line
	chisel.set_event_formatter("%evt.arg.data")
	return true
end

local function container_tag()
	if not with_container then
		return ""
	end
	local name = evt.field(f.cname)
	local colour = name == "host" and terminal.green or terminal.cyan
	return string.format("%s [%s] [%s]", colour, tostring(name), tostring(evt.field(f.cid)))
end

function on_event()
	local res = evt.field(f.res)
	if res <= 0 then
		return true
	end
	local fdname = evt.field(f.fdname) or "<NA>"
	local pname = evt.field(f.pname)
	local colour, verb, prep = terminal.blue, "Write", "to"
	if evt.field(f.isread) then
		colour, verb, prep = terminal.red, "Read", "from"
	end
	print(string.format("%s------ %s %s %s %s %s", colour, verb, format_bytes(res), prep,
		container_tag(), string.format("%s %s (%s)", colour, fdname, tostring(pname))))
	return true
end

function on_capture_end()
	print(terminal.reset)
end
