--[[
fd_echo.lua - shared body of the stdin and stdout chisels (loaded with
`require "fd_echo"`): print the data of every I/O event on one FD number.
Not a chisel itself (it defines no description).
--]]

local M = {}

-- fdnum: the FD number whose reads and writes are printed
function M.install(fdnum)
	local fdata

	function on_init()
		fdata = chisel.request_field("evt.rawarg.data")
		sysdig.set_snaplen(2000)
		chisel.set_filter("fd.num=" .. fdnum .. " and evt.is_io=true")
		return true
	end

	function on_event()
		local data = evt.field(fdata)
		if data ~= nil then
			print(data)
		end
		return true
	end
end

return M
