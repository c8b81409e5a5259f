--[[
live_table.lua - the "top N totals" table loop shared by table_generator,
topcontainers_cpu, topprocs_cpu and httptop (loaded with
`require "live_table"`): reading a file prints one table at the end; live,
the screen is cleared and a table printed every second.  Also builds the
composite key of the current event.  Not a chisel itself (it defines no
description).
--]]

require "common"
local terminal = require "ansiterminal"

local M = {}
local field = evt.field

-- the field handles of the list of field names
function M.request_fields(names)
	local handles = {}
	for i, f in ipairs(names) do
		handles[i] = chisel.request_field(f)
	end
	return handles
end

-- the values of the handles joined with "\001\001", or nil when a field
-- has no value (one key, the common case, without a temporary table)
function M.event_key(handles)
	local n = #handles
	if n == 1 then
		local v = field(handles[1])
		if v == nil then
			return nil
		end
		return tostring(v)
	end
	local parts = {}
	for i = 1, n do
		local v = field(handles[i])
		if v == nil then
			return nil
		end
		parts[i] = tostring(v)
	end
	return table.concat(parts, "\001\001")
end

--[[ Defines on_capture_start, on_interval and on_capture_end.  info is the
print_sorted_table description (its output_format is set here), totals()
returns the key -> value table to print, reset() starts a new period. ]]
function M.install(info, totals, reset)
	local live = false

	function on_capture_start()
		live = sysdig.is_live()
		info.output_format = sysdig.get_output_format()
		if live then
			chisel.set_interval_s(1)
			if info.output_format ~= "json" then
				terminal.clearscreen()
				terminal.hidecursor()
			end
		end
		return true
	end

	function on_interval(ts_s, ts_ns, delta)
		if info.output_format ~= "json" then
			terminal.clearscreen()
			terminal.moveto(0, 0)
		end
		print_sorted_table(totals(), ts_s, 0, delta, info)
		reset()
		return true
	end

	function on_capture_end(ts_s, ts_ns, delta)
		if live and info.output_format ~= "json" then
			terminal.clearscreen()
			terminal.moveto(0, 0)
			terminal.showcursor()
			return true
		end
		print_sorted_table(totals(), ts_s, 0, delta, info)
		return true
	end
end

return M
