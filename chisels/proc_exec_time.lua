--[[
proc_exec_time.lua - one line per process exit with its run time, coloured
by duration (red above 10 s, yellow above 3 s, blue inside a container,
green otherwise).  Part of the sysdig-c chisel library (same name,
arguments and output as sysdig 0.29.3's chisel).
--]]

description = "List the processes that have finished running, along with their execution time, and color every line based on the total process run time (Green|Blue below thresholds, Yellow at 3 sec, and Red at 10 sec). This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown. (Blue represents a process running within a container, and Green represents a host process)"
short_description = "Show process execution time"
category = "Performance"

args = {
	{ name = "disable_color", description = "Set to 'disable_colors' if you want to disable color output", argtype = "string", optional = true },
}

require "common"
local terminal = require "ansiterminal"
terminal.enable_color(true)

local RED_NS = 10000000000
local YELLOW_NS = 3000000000

local f = {}
local with_container = false

function on_set_arg(name, val)
	-- any argument equal to "disable_colors" turns the colours off
	if val == "disable_colors" then
		terminal.enable_color(false)
	end
	return true
end

local function row(fmt, cols)
	print(string.format(fmt, unpack(cols)))
end

function on_init()
	for _, name in ipairs({ "proc.name", "proc.args", "proc.duration", "container.name", "container.id" }) do
		f[name] = chisel.request_field(name)
	end
	with_container = sysdig.is_print_container_data()
	chisel.set_filter("evt.type=procexit")
	local d20 = string.rep("-", 20)
	if with_container then
		local fmt = "%-13.13s %-20.20s %-20.20s %-12.12s %s"
		row(fmt, { "proc.duration", "container.id", "container.name", "proc.name", "proc.args" })
		row(fmt, { string.rep("-", 13), d20, d20, string.rep("-", 12), d20 })
	else
		local fmt = "%-13.13s %-12.12s %s"
		row(fmt, { "proc.duration", "proc.name", "proc.args" })
		row(fmt, { string.rep("-", 13), string.rep("-", 12), d20 })
	end
	return true
end

local function colour(duration)
	if duration > RED_NS then
		return terminal.red
	elseif duration > YELLOW_NS then
		return terminal.yellow
	elseif evt.field(f["container.name"]) ~= "host" then
		return terminal.blue
	end
	return terminal.green
end

function on_event()
	local duration = evt.field(f["proc.duration"])
	if duration == nil then
		return true
	end
	local c = colour(duration)
	local took = format_time_interval(duration)
	if with_container then
		print(c .. string.format("%-13.13s %-20.20s %-20.20s %-12.12s %s", took,
			evt.field(f["container.id"]), evt.field(f["container.name"]),
			evt.field(f["proc.name"]), evt.field(f["proc.args"])))
	else
		print(c .. string.format("%-13.13s %-12.12s %s", took, evt.field(f["proc.name"]),
			evt.field(f["proc.args"])))
	end
	return true
end

function on_capture_end()
	print(terminal.reset)
end
