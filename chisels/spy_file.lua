--[[
spy_file.lua - echo every successful read/write on files (not terminals),
optionally only reads or writes, optionally of one file.  Part of the
sysdig-c chisel library (same name, arguments and output as sysdig 0.29.3's
chisel).
--]]

description = "This chisel intercepts all reads and writes to all files. Instead of all files, you can limit interception to one file."
short_description = "Echo any read/write made by any process to all files. Optionally, you can provide the name of one file to only intercept reads/writes to that file."
category = "I/O"

args = {
	{ name = "read_or_write", description = "Specify 'R' to capture only read events; 'W' to capture only write events; 'RW' to capture read and write events. By default both read and write events are captured.", argtype = "string", optional = true },
	{ name = "spy_on_file_name", description = "The name of the file which the chisel should spy on for all read and write activity.", argtype = "string", optional = true },
}

require "common"

local f = {}
local only_file = nil
local mode = nil

function on_set_arg(name, val)
	if name == "read_or_write" then
		mode = val
	elseif name == "spy_on_file_name" then
		only_file = val
	else
		return false
	end
	return true
end

local function build_filter()
	local which
	if only_file ~= nil and only_file ~= "" then
		which = "(fd.name=" .. only_file .. ") and "
	else
		which = "(not fd.name contains /dev/pt and not fd.name contains /dev/tty) and "
	end
	local dir = "evt.is_io=true and "
	if mode == "R" or mode == "r" then
		dir = "evt.is_io_read=true and "
	elseif mode == "W" or mode == "w" then
		dir = "evt.is_io_write=true and "
	end
	return which .. dir .. "fd.type=file and evt.dir=< and evt.failed=false"
end

function on_init()
	for _, name in ipairs({ "evt.arg.data", "fd.name", "evt.is_io_write", "proc.pid", "proc.name",
		"evt.rawarg.res", "evt.time" }) do
		f[name] = chisel.request_field(name)
	end
	sysdig.set_snaplen(2000)
	sysdig.set_output_format("ascii")
	chisel.set_filter(build_filter())
	return true
end

function on_event()
	local rw = evt.field(f["evt.is_io_write"]) == true and "W" or "R"
	print(string.format("%s %s(%s) %s %s %s %s", evt.field(f["evt.time"]), evt.field(f["proc.name"]),
		evt.field(f["proc.pid"]), rw, format_bytes(evt.field(f["evt.rawarg.res"])),
		evt.field(f["fd.name"]), evt.field(f["evt.arg.data"])))
	return true
end
