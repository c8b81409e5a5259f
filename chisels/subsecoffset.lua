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

local terminal = require "ansiterminal"
local heatmap = require "heatmap"

local TICKS = 10
local label_room = 0
local frawtime = nil

local function tick(h, x)
	return math.floor(x * TICKS / h.width)
end

heatmap.install({
	period_ns = 1000000000,
	setup = function(h)
		label_room = string.len("|" .. (0.9 * h.period_ns / 10000000) .. "ms")
		chisel.set_filter("evt.dir=>")
		frawtime = chisel.request_field("evt.rawtime")
	end,
	banner = "Tracing syscalls... red (hot) == high frequency <-> green == low frequency.\n",
	cell = function(h)
		local t = evt.field(frawtime)
		return math.floor((((t * 1000 / h.period_ns) % 1000) / 1000) * h.width)
	end,
	-- sysdig's chisel sets only the background of empty cells (twice)
	empty_cell = function()
		terminal.setbgcol(0)
		terminal.setbgcol(0)
	end,
	tick = tick,
	label = function(h, x)
		if x > h.width - label_room then
			return nil
		end
		return "|" .. (math.floor(TICKS * x / h.width) * h.period_ns / 10000000) .. "ms"
	end,
})
