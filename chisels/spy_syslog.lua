--[[
spy_syslog.lua - print every message written to syslog (/dev/log) as
facility.severity process[tid] message; optionally save the events around
each message to a file.  Part of the sysdig-c chisel library (same name,
arguments and output as sysdig 0.29.3's chisel, including its column
order with -pc when stdout is not a terminal); the common part is in
log_spy.lua.
--]]

description = "Print every message written to syslog by any process. You can combine this chisel with filters like 'proc.name=foo' (to restrict the output to a specific process), or 'syslog.message contains foo' (to show only messages including a specific string). You can also write the events generated around each log entry to file by using the dump_file_name and dump_range_ms arguments."
short_description = "Print every message written to syslog. Optionally, export the events around each syslog message to file."
category = "Logs"

args = {
	{ name = "dump_file_name", description = "The name of the file where the chisel will write the events related to each syslog entry.", argtype = "string", optional = true },
	{ name = "dump_range_ms", description = "The time interval to capture *before* and *after* each event, in milliseconds. For example, 500 means that 1 second around each displayed event (.5s before and .5s after) will be saved to <dump_file_name>. The default value for dump_range_ms is 1000.", argtype = "int", optional = true },
	{ name = "disable_color", description = "Set to 'disable_colors' if you want to disable color output", argtype = "string", optional = true },
}

-- warning yellow, worse red, container blue, else green
local function sev_colour(term, sevcode, cname)
	if sevcode == 4 then
		return term.yellow
	elseif sevcode < 4 then
		return term.red
	elseif cname ~= "host" then
		return term.blue
	end
	return term.green
end

local function lines(f, tty, with_container, term)
	local fac, sev = evt.field(f.fac), evt.field(f.sev)
	local msg, sevcode = evt.field(f.msg), evt.field(f.sevcode)
	local tid, pname = evt.field(f.tid), evt.field(f.pname)
	local cname, cid = evt.field(f.cname), evt.field(f.cid)
	local c = tty and sev_colour(term, sevcode, cname) or ""
	if with_container then
		if tty then
			return { string.format("%s%-20s %-20s %s.%s %s[%u] %s", c, cid, cname, fac, sev, pname, tid, msg) }
		end
		-- sysdig's chisel puts the facility first here
		return { string.format("%-20s %-20s %s.%s %s[%u] %s", fac, cid, cname, sev, pname, tid, msg) }
	end
	return { string.format("%s%s.%s %s[%u] %s", c, fac, sev, pname, tid, msg) }
end

require("log_spy").install({
	filter = "fd.name contains /dev/log and evt.is_io_write=true and evt.dir=< and evt.failed=false",
	snaplen = 1000,
	ascii = false,
	fields = { fac = "syslog.facility.str", sev = "syslog.severity.str", sevcode = "syslog.severity",
		msg = "syslog.message", pname = "proc.name", cname = "container.name", cid = "container.id" },
	lines = lines,
})
