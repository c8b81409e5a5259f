--[[
ps.lua - list the processes at the first event, like ps.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel); the first-event logic is in snapshot.lua.
--]]

description = "List the running processes, with an output that is similar to the one of ps. Output is at a point in time; adjust this in the filter. It defaults to time of evt.num=0"
short_description = "List (and optionally filter) the machine processes."
category = "System State"

args = {
	{ name = "filter", description = "A sysdig-like filter expression that allows restricting the FD list. For example 'fd.name contains /etc' shows all the processes that have files open under /etc.", argtype = "filter", optional = true },
}

local snapshot = require "snapshot"

snapshot.threads(nil, nil, function(threads)
	print(extend_string("TID", 8) .. extend_string("PID", 8) .. extend_string("USER", 12) ..
		extend_string("VIRT", 11) .. extend_string("RES", 11) .. extend_string("FDLIMIT", 10) ..
		extend_string("CMD", 20))
	for tid, t in snapshot.sorted(threads) do
		print(extend_string(tostring(tid), 8) .. extend_string(tostring(t.pid), 8) ..
			extend_string(t.username, 12) ..
			extend_string(format_bytes(t.vmsize_kb * 1024), 11) ..
			extend_string(format_bytes(t.vmrss_kb * 1024), 11) ..
			extend_string(tostring(t.fdlimit), 10) .. t.comm)
	end
end)
