--[[
spectrogram.lua - terminal spectrogram of system call latencies: one row
per refresh period (500 ms by default), the X axis is log10 of the latency
(1ns .. 100s), the colour the number of calls.  Needs an ANSI terminal.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel); the drawing is in heatmap.lua.
--]]

description = "This console visualization shows the frequency of system call latencies. The Y axis unit is time. By default, a new line is created twice a second, but that can be changed by specifying a different refresh time argument. The X axis shows a range of latencies. Each latency value has a color that can be black (no calls), green (tens of calls/s), yellow (hundreds of calls/s) or red (Thousands of calls/s). In other words, red areas mean that there are many system calls taking the specified time to return. Use this chisel in conjunction with filters to visualize latencies for certain processes, types of I/O activity, file systems, etc."
short_description = "Visualize OS latency in real time."
category = "CPU Usage"

args = {
	{ name = "refresh_time", description = "Chart refresh time in milliseconds", argtype = "int", optional = true },
}

require "common"
local terminal = require "ansiterminal"
local heatmap = require "heatmap"

local DECADES = 11	-- 1ns .. 10^11 ns
local flatency = nil

local function decade(h, x)
	return math.floor(x * DECADES / h.width)
end

heatmap.install({
	period_ns = 500000000,
	setup = function(h)
		chisel.set_filter("evt.dir=<")
		flatency = chisel.request_field("evt.latency")
	end,
	cell = function(h)
		local latency = evt.field(flatency)
		if latency == 0 then
			return nil
		end
		return math.floor(math.min(math.log10(latency), DECADES) * h.width / DECADES) + 1
	end,
	empty_cell = function()
		terminal.setfgcol(0)
		terminal.setbgcol(0)
	end,
	tick = decade,
	label = function(h, x)
		return "|" .. format_time_interval(math.pow(10, decade(h, x)))
	end,
	final_row = true,
})
