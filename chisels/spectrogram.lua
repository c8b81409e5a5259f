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
terminal.enable_color(true)

local DECADES = 11	-- 1ns .. 10^11 ns
local period_ns = 500000000
local per_sec = 1000000000 / period_ns
local width = 0
local tty = false
local counts = {}
local flatency = nil

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
	chisel.set_filter("evt.dir=<")
	flatency = chisel.request_field("evt.latency")
	terminal.hidecursor()
	return true
end

function on_capture_start()
	chisel.set_interval_ns(period_ns)
	return true
end

function on_event()
	local latency = evt.field(flatency)
	if latency == 0 then
		return true
	end
	local cell = math.floor(math.min(math.log10(latency), DECADES) * width / DECADES) + 1
	counts[cell] = (counts[cell] or 0) + 1
	return true
end

local function empty_cell()
	terminal.setfgcol(0)
	terminal.setbgcol(0)
end

local function decade(x)
	return math.floor(x * DECADES / width)
end

function on_interval(ts_s, ts_ns, delta)
	heatmap.draw_row(counts, width, per_sec, empty_cell)
	heatmap.draw_axis(width, decade, function(x)
		return "|" .. format_time_interval(math.pow(10, decade(x)))
	end)
	counts = {}
	return true
end

function on_capture_end(ts_s, ts_ns, delta)
	if tty then
		on_interval(ts_s, ts_ns, 0)
		print(terminal.reset)
		terminal.showcursor()
	end
	return true
end
