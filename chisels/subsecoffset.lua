--[[
subsecoffset.lua - terminal heat map of where system calls start inside
each refresh period (1 s by default): one row per period, the X axis is
the offset within the period, the colour the number of calls.  Needs an
ANSI terminal.  Part of the sysdig-c chisel library (same name, arguments
and output as sysdig 0.29.3's chisel); the drawing is in heatmap.lua.
--]]

description = "This visualizes the subsecond offset time of system call execution. This allows repetitive patterns to be identified, which are lost when averaging at a one second granularity. The Y axis (vertical) shows the passage of time. The X axis (horizontal) shows the passage of time within whole or fractions of a second. By default, the X axis range is 1000 milliseconds; this can be specified as an argument (try 100). Each bucket of the heat map, or spectrogram, is shown as a colored rectangle. The color shows how many syscalls fell into that time and subsecond offset range. It can be black (no calls), green (tens of calls/s), yellow (hundreds of calls/s) or red (Thousands of calls/s). Use this chisel in conjunction with filters to visualize latencies for certain processes, types of I/O activity, file systems, etc."
short_description = "Visualize subsecond offset execution time."
category = "CPU Usage"

args = {
	{ name = "refresh_time", description = "chart refresh time in milliseconds", argtype = "int", optional = true },
}

require "common"
local terminal = require "ansiterminal"
local heatmap = require "heatmap"
terminal.enable_color(true)

local TICKS = 10
local period_ns = 1000000000
local per_sec = 1000000000 / period_ns
local width = 0
local label_room = 0
local tty = false
local counts = {}
local frawtime = nil

function on_set_arg(name, val)
	if name ~= "refresh_time" then
		return false
	end
	period_ns = parse_numeric_input(val, name) * 1000000
	per_sec = 1000000000 / period_ns
	return true
end

function on_init()
	tty = sysdig.is_tty()
	if not heatmap.need_tty() then
		return false
	end
	width = sysdig.get_terminal_info().width
	label_room = string.len("|" .. (0.9 * period_ns / 10000000) .. "ms")
	chisel.set_filter("evt.dir=>")
	frawtime = chisel.request_field("evt.rawtime")
	terminal.hidecursor()
	print("Tracing syscalls... red (hot) == high frequency <-> green == low frequency.\n")
	return true
end

function on_capture_start()
	chisel.set_interval_ns(period_ns)
	return true
end

function on_event()
	local t = evt.field(frawtime)
	local cell = math.floor((((t * 1000 / period_ns) % 1000) / 1000) * width)
	counts[cell] = (counts[cell] or 0) + 1
	return true
end

-- sysdig's chisel sets only the background of empty cells (twice)
local function empty_cell()
	terminal.setbgcol(0)
	terminal.setbgcol(0)
end

local function tick(x)
	return math.floor(x * TICKS / width)
end

function on_interval(ts_s, ts_ns, delta)
	heatmap.draw_row(counts, width, per_sec, empty_cell)
	heatmap.draw_axis(width, tick, function(x)
		if x > width - label_room then
			return nil
		end
		return "|" .. (math.floor(TICKS * x / width) * period_ns / 10000000) .. "ms"
	end)
	counts = {}
	return true
end

function on_capture_end(ts_s, ts_ns, delta)
	if tty then
		print(terminal.reset)
		terminal.showcursor()
	end
	return true
end
