--[[
log_spy.lua - shared body of the spy_logs and spy_syslog chisels (loaded
with `require "log_spy"`): arguments dump_file_name, dump_range_ms and
disable_color, a chisel filter on successful writes, one printed line per
message (coloured only when stdout is a terminal) and, when a dump file is
given, the events around every message saved at the end (dump_around.lua).
Not a chisel itself (it defines no description).
--]]

require "common"
local terminal = require "ansiterminal"
local dump_around = require "dump_around"

local M = {}

--[[ opts.filter      chisel filter
opts.snaplen     sysdig.set_snaplen value
opts.ascii       true: buffers rendered as ascii (set_output_format)
opts.fields      { key = field name } requested in on_init, passed to lines()
opts.lines(f, tty, with_container, term) -> array of lines for the event ]]
function M.install(opts)
	local f = {}
	local dump_file = nil
	local range_ms = "1000"
	local dumper = nil
	local started = false
	local tty = false
	local with_container = false

	terminal.enable_color(true)

	function on_set_arg(name, val)
		if name == "dump_file_name" then
			dump_file = val
		elseif name == "dump_range_ms" then
			range_ms = val
		elseif name == "disable_color" and val == "disable_color" then
			terminal.enable_color(false)
		else
			return false
		end
		return true
	end

	function on_init()
		for key, name in pairs(opts.fields) do
			f[key] = chisel.request_field(name)
		end
		dumper = dump_around.new(range_ms)
		dumper:request_fields()
		f.tid = dumper.tid_field
		with_container = sysdig.is_print_container_data()
		sysdig.set_snaplen(opts.snaplen)
		if opts.ascii then
			sysdig.set_output_format("ascii")
		end
		chisel.set_filter(opts.filter)
		tty = sysdig.is_tty()
		return true
	end

	function on_capture_start()
		if dump_file and sysdig.is_live() then
			print("events export not supported on live captures")
			return false
		end
		started = true
		return true
	end

	function on_event()
		for _, line in ipairs(opts.lines(f, tty, with_container, terminal)) do
			print(line)
		end
		if dump_file then
			dumper:note()
		end
		return true
	end

	function on_capture_end()
		if tty then
			print(terminal.reset)
		end
		if dump_file and started then
			print("Writing events for " .. dumper:count() .. " log entries")
			dumper:run(dump_file)
		end
	end
end

return M
