--[[
io_totals.lua - shared body of the iobytes, iobytes_file and iobytes_net
chisels (loaded with `require "io_totals"`): every second, print the bytes
read, written and their total for the I/O events matching a filter.  Not a
chisel itself (it defines no description).
--]]

local M = {}

-- filter: the events counted (a filter string, evt.is_io=true at least)
function M.install(filter)
	local fbytes, ftime, fisread
	local total, total_in, total_out = 0, 0, 0

	function on_init()
		fbytes = chisel.request_field("evt.rawarg.res")
		ftime = chisel.request_field("evt.time.s")
		fisread = chisel.request_field("evt.is_io_read")
		chisel.set_filter(filter)
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
end

return M
