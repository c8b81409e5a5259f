--[[
iobytes_file.lua - total file I/O bytes per second.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Counts the total bytes read from and written to files."
short_description = "Sum of file I/O bytes"
category = "I/O"

args = {}

local fbytes, ftime, fisread
local total, total_in, total_out = 0, 0, 0

function on_init()
	fbytes = chisel.request_field("evt.rawarg.res")
	ftime = chisel.request_field("evt.time.s")
	fisread = chisel.request_field("evt.is_io_read")
	chisel.set_filter("evt.is_io=true and fd.type=file")
	chisel.set_interval_s(1)
	return true
end

function on_event()
	local n = evt.field(fbytes)
	if n == nil or n <= 0 then
		return true
	end
	total = total + n
	if evt.field(fisread) then
		total_in = total_in + n
	else
		total_out = total_out + n
	end
	return true
end

function on_interval()
	print(evt.field(ftime) .. " in:" .. total_in .. " out:" .. total_out .. " tot:" .. total)
	total, total_in, total_out = 0, 0, 0
	return true
end
