--[[
stdin.lua - print what processes write to their standard input (fd 0).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Print the standard input of any process on screen. Combine this script with a filter to limit the output to a specific process or pid."
short_description = "Print stdin of processes"
category = "I/O"

args = {}

local fdata

function on_init()
	fdata = chisel.request_field("evt.rawarg.data")
	sysdig.set_snaplen(2000)
	chisel.set_filter("fd.num=0 and evt.is_io=true")
	return true
end

function on_event()
	local data = evt.field(fdata)
	if data ~= nil then
		print(data)
	end
	return true
end
