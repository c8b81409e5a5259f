--[[
shellshock_detect.lua - report execve's of bash/sh whose environment
carries a function definition followed by code (the shellshock pattern
"() {...").  Part of the sysdig-c chisel library (same name, arguments and
output as sysdig 0.29.3's chisel).  Note: the filter mixes 'and' and 'or'
without brackets exactly like sysdig's chisel, so on sysdig 0.29.3 (and on
sysdig-c) on_init fails with a filter error.
--]]

description = "Reports every attempt to execute bash in a way that exploits the shellshock vulnerability (http://web.nvd.nist.gov/view/vuln/detail?vulnId=CVE-2014-6271). For every attempt, the chisel reports the time, the name of the process trying to run bash, and its PID."
short_description = "print shellshock attacks"
category = "Security"

args = {}

require "common"

local PATTERN = "%(%) ?{.+"
local f = {}

function on_init()
	for _, name in ipairs({ "proc.pname", "proc.ppid", "proc.pid", "evt.arg.environment", "evt.time" }) do
		f[name] = chisel.request_field(name)
	end
	chisel.set_filter("proc.name=bash or proc.name=sh and evt.type=execve")
	print(extend_string("TIME", 22) .. extend_string("PROCNAME", 22) .. extend_string("PID", 8) .. "FUNCTION")
	return true
end

function on_event()
	local env = evt.field(f["evt.arg.environment"])
	if env == nil or string.find(env, PATTERN) == nil then
		return true
	end
	local thread = sysdig.get_thread_table()[evt.field(f["proc.pid"])]
	for _, var in ipairs(thread.env) do
		if string.find(var, PATTERN) then
			print(extend_string(evt.field(f["evt.time"]), 22) ..
				extend_string(evt.field(f["proc.pname"]), 22) ..
				extend_string(tostring(evt.field(f["proc.ppid"])), 8) ..
				string.match(var, "%(%).+"))
			break
		end
	end
	return true
end
