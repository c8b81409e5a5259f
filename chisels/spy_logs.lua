--[[
spy_logs.lua - echo every line written to a log file (names containing
.log, _log or /var/log, compressed files excluded); optionally save the
events around each write to a file.  Part of the sysdig-c chisel library
(same name, arguments and output as sysdig 0.29.3's chisel); the common
part is in log_spy.lua.
--]]

local LOG_FILES = "(fd.name contains .log or fd.name contains _log or fd.name contains /var/log) and not (fd.name contains .gz or fd.name contains .tgz)"

description = "This chisel intercepts all the writes to files containing '.log' or '_log' in their name, and pretty prints them. You can combine this chisel with filters like 'proc.name=foo' (to restrict the output to a specific process), or 'evt.buffer contains foo' (to show only messages including a specific string). You can also write the events generated around each log entry to file by using the dump_file_name and dump_range_ms arguments. If running from a terminal the line will be colored Green = OK; Yellow = Warn; and Red = Error. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown. ( A Blue colored container.name represents a process running within a container)"
short_description = "Echo any write made by any process to a log file. Optionally, export the events around each log message to file."
category = "Logs"

args = {
	{ name = "dump_file_name", description = "The name of the file where the chisel will write the events related to each syslog entry.", argtype = "string", optional = true },
	{ name = "dump_range_ms", description = "The time interval to capture *before* and *after* each event, in milliseconds. For example, 500 means that 1 second around each displayed event (.5s before and .5s after) will be saved to <dump_file_name>. The default value for dump_range_ms is 1000.", argtype = "int", optional = true },
	{ name = "disable_color", description = "Set to 'disable_colors' if you want to disable color output", argtype = "string", optional = true },
}

require "common"

-- colour of one message on a terminal: yellow for warnings, red for errors
local function msg_colour(term, msg)
	if string.find(string.lower(msg), "warn") ~= nil then
		return term.yellow
	elseif string.find(msg, "err") then
		return term.red
	end
	return term.green
end

local function lines(f, tty, with_container, term)
	local buf = evt.field(f.buf)
	local cname = evt.field(f.cname)
	local prefix = evt.field(f.pname) .. " " .. evt.field(f.fdname) .. " "
	local out = {}
	for _, msg in ipairs(split(buf, "\n")) do
		if #msg ~= 0 then
			local line
			if tty then
				local c = msg_colour(term, msg)
				if with_container then
					local ccol = cname ~= "host" and term.blue or c
					line = c .. " " .. ccol .. " " .. cname .. " " .. c .. " " .. prefix .. msg
				else
					line = c .. " " .. prefix .. msg
				end
			elseif with_container then
				line = cname .. " " .. prefix .. msg
			else
				line = prefix .. msg
			end
			out[#out + 1] = line
		end
	end
	return out
end

require("log_spy").install({
	filter = "(" .. LOG_FILES .. ") and evt.is_io_write=true and evt.dir=< and evt.failed=false",
	snaplen = 2000,
	ascii = true,
	fields = { buf = "evt.buffer", pname = "proc.name", fdname = "fd.name", cname = "container.name" },
	lines = lines,
})
