--[[
spy_net.lua - shared body of the spy_ip and spy_port chisels (loaded with
`require "spy_net"`): echo the payloads of network I/O matching one filter
term, with a coloured "------ Read/Write <size>" line whenever the
direction changes.  Not a chisel itself (it defines no description).
--]]

require "common"
local terminal = require "ansiterminal"

local M = {}

--[[ opts.arg        name of the required argument (its value ends the filter)
opts.term       filter field compared with the argument ("fd.ip", "fd.port")
opts.write_word label of the write direction (sysdig's spy_ip says "Read") ]]
function M.install(opts)
	local f = {}
	local target = nil
	local last_dir = nil	-- "r" or "w"
	local header = nil

	terminal.enable_color(true)

	function on_set_arg(name, val)
		if name == opts.arg then
			target = val
		elseif name == "disable_color" then
			if val == "disable_colors" then
				terminal.enable_color(false)
			end
		else
			return false
		end
		return true
	end

	function on_init()
		f.data = chisel.request_field("evt.arg.data")
		f.isread = chisel.request_field("evt.is_io_read")
		f.res = chisel.request_field("evt.rawarg.res")
		sysdig.set_snaplen(1000)
		chisel.set_filter("evt.is_io=true and (fd.type=ipv4 or fd.type=ipv6) and " .. opts.term .. "=" .. target)
		return true
	end

	function on_event()
		local res = evt.field(f.res)
		local data = evt.field(f.data)
		if res == nil or res <= 0 or data == nil then
			return true
		end
		local isread = evt.field(f.isread)
		if isread and last_dir ~= "r" then
			header = terminal.red .. "------ Read " .. format_bytes(res)
			last_dir = "r"
		elseif not isread and last_dir ~= "w" then
			header = terminal.blue .. "------ " .. opts.write_word .. " " .. format_bytes(res)
			last_dir = "w"
		end
		print(header)
		print(data)
		return true
	end

	function on_capture_end()
		print(terminal.reset)
	end
end

return M
