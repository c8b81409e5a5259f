--[[
lsof.lua - list the open FDs of every process at the first event, like lsof.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel); the first-event logic is in snapshot.lua.
--]]

description = "This chisel prints the open file descriptors for every process in the system, with an output that is similar to the one of lsof. Output is at a point in time; adjust this in the filter.  It defaults to time of evt.num=0"
short_description = "List (and optionally filter) the open file descriptors."
category = "System State"

args = {
	{ name = "filter", description = "A sysdig-like filter expression that allows restricting the FD list. E.g. 'proc.name=foo and fd.name contains /etc'.", argtype = "filter", optional = true },
}

local snapshot = require "snapshot"

snapshot.threads(nil, nil, function(threads)
	print(extend_string("COMMAND", 20) .. extend_string("PID", 8) .. extend_string("TID", 8) ..
		extend_string("USER", 8) .. extend_string("FD", 8) .. extend_string("TYPE", 12) .. "NAME")
	for tid, t in snapshot.sorted(threads) do
		for fd, info in pairs(t.fdtable) do
			print(extend_string(t.comm, 20) .. extend_string(tostring(t.pid), 8) ..
				extend_string(tostring(tid), 8) .. extend_string(t.username, 8) ..
				extend_string(tostring(fd), 8) .. extend_string(tostring(info.type), 12) ..
				tostring(info.name))
		end
	end
end)
