--[[
udp_extract.lua - write the payload of every successful UDP read/write to
one file per socket (named after the fd name, ':' -> '_', '>' -> '-') in
./udp_dump_files.  Trace files only.  Part of the sysdig-c chisel library
(same name, arguments and output as sysdig 0.29.3's chisel).
--]]

local DIR = "./udp_dump_files"

description = "This chisel parses a trace file, identifies file descriptors carrying UDP network traffic (DNS excluded) and dumps the content of each FD into a different file in the " .. DIR .. " directory. Files are named after the UDP tuple they contain."
short_description = "extract data from UDP streams to files."
category = "I/O"

args = {}

local f = {}
local out = {}	-- fd name -> open file

function on_init()
	f.buf = chisel.request_field("evt.rawarg.data")
	f.fdname = chisel.request_field("fd.name")
	os.execute("mkdir " .. DIR .. " 2> /dev/null")
	sysdig.set_snaplen(16384)
	chisel.set_filter("evt.dir=< and evt.rawres>=0 and fd.l4proto=udp and evt.is_io=true")
	return true
end

function on_capture_start()
	if sysdig.is_live() then
		print("live capture not supported")
		return false
	end
	return true
end

function on_event()
	local buf = evt.field(f.buf)
	local fdname = evt.field(f.fdname)
	if not out[fdname] then
		local path = (DIR .. "/" .. fdname):gsub(":", "_"):gsub(">", "-")
		out[fdname] = io.open(path, "w")
	end
	out[fdname]:write(buf)
	return true
end
