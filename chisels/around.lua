--[[
around.lua - for a trace file and a filter: print each matching event
(time, process, thread) and save to a file the events of the same thread
within +/- dump_range_ms of every match (through a second sysdig run, see
dump_around.lua).  Part of the sysdig-c chisel library (same name,
arguments and output as sysdig 0.29.3's chisel).
--]]

description = "Given a filter on the command line, this chisel saves the events that are in a time range around filter matches, and that are on the SAME process/thread. The time range can be adjusted with the dump_range_ms argument. For example, 'sysdig -c around evt.type=open and evt.failed=true' will save two seconds of activity around every failed open."
short_description = "Export to file the events around the time range where the given filter matches."
category = "Misc"

args = {
	{ name = "dump_file_name", description = "The name of the file where the chisel will write the events related to each syslog entry.", argtype = "string", optional = false },
	{ name = "dump_range_ms", description = "The time interval to capture *before* and *after* each event, in milliseconds. For example, 500 means that 1 second around each displayed event (.5s before and .5s after) will be saved to <dump_file_name>. The default value for dump_range_ms is 1000.", argtype = "int", optional = true },
}

require "common"
local terminal = require "ansiterminal"
local dump_around = require "dump_around"
terminal.enable_color(true)

local f = {}
local dump_file = nil
local range_ms = "1000"
local dumper = nil
local started = false
local tty = false

function on_set_arg(name, val)
	if name == "dump_file_name" then
		dump_file = val
	elseif name == "dump_range_ms" then
		range_ms = val
	else
		return false
	end
	return true
end

function on_init()
	f.pname = chisel.request_field("proc.name")
	f.time = chisel.request_field("evt.time")
	dumper = dump_around.new(range_ms)
	dumper:request_fields()
	f.tid = dumper.tid_field
	tty = sysdig.is_tty()
	if sysdig.get_filter() == "" then
		print("no filter specified")
		return false
	end
	return true
end

function on_capture_start()
	if sysdig.is_live() then
		print("live capture not supported")
		return false
	end
	started = true
	return true
end

function on_event()
	print(evt.field(f.time) .. " " .. (evt.field(f.pname) or "<NA>") .. "(" .. evt.field(f.tid) .. ")")
	dumper:note()
	return true
end

function on_capture_end()
	if tty then
		print(terminal.reset)
	end
	if started then
		print("\nSaving events around " .. dumper:count() .. " syslog entries to " .. dump_file)
		dumper:run(dump_file)
	end
end
