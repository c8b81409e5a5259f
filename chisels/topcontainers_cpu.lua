--[[
topcontainers_cpu.lua - containers sorted by CPU usage (from the procinfo events).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Show the top containers defined by the highest CPU utilization."
short_description = "Top containers by CPU usage"
category = "CPU Usage"

args = {}

require "common"
local terminal = require "ansiterminal"

local info = {
	key_fld = { "container.name" },
	key_desc = { "container.name" },
	value_fld = "thread.exectime",
	value_desc = "CPU%",
	value_units = "timepct",
	top_number = 10,
	output_format = "normal",
}
local keys, fcpu
local usage = {}
local live = false

function on_init()
	keys = {}
	for i, f in ipairs(info.key_fld) do
		keys[i] = chisel.request_field(f)
	end
	chisel.request_field(info.value_fld)
	fcpu = chisel.request_field("thread.cpu")
	chisel.set_filter("evt.type=procinfo")
	return true
end

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

function on_event()
	local parts = {}
	for i, h in ipairs(keys) do
		local v = evt.field(h)
		if v == nil then
			return false
		end
		parts[i] = tostring(v)
	end
	local key = table.concat(parts, "\001\001")
	-- thread.cpu is a percentage: scale it to "ns per second"
	local cpu = evt.field(fcpu) * 10000000
	usage[key] = (usage[key] or 0) + cpu
	return true
end

function on_interval(ts_s, ts_ns, delta)
	if info.output_format ~= "json" then
		terminal.clearscreen()
		terminal.moveto(0, 0)
	end
	print_sorted_table(usage, ts_s, 0, delta, info)
	usage = {}
	return true
end

function on_capture_end(ts_s, ts_ns, delta)
	if live and info.output_format ~= "json" then
		terminal.clearscreen()
		terminal.moveto(0, 0)
		terminal.showcursor()
		return true
	end
	print_sorted_table(usage, ts_s, 0, delta, info)
	return true
end
