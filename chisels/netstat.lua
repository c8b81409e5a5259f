--[[
netstat.lua - list the network connections at the first event, like netstat.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel); the first-event logic is in snapshot.lua.
--]]

description = "Print the system network connections, with an output that is similar to the one of netstat. Output is at a point in time; adjust this in the filter. It defaults to time of evt.num=0"
short_description = "List (and optionally filter) network connections."
category = "System State"

args = {
	{ name = "filter", description = "A sysdig-like filter expression that allows restricting the FD list. E.g. 'proc.name=foo and fd.port=80'.", argtype = "filter", optional = true },
}

local snapshot = require "snapshot"

-- the argument is added to the connection filter
local function add_filter(filter, val)
	return filter .. "and (" .. val .. ")"
end

snapshot.threads("(fd.type=ipv4 or fd.type=ipv6)", add_filter, function(threads)
	print(extend_string("Proto", 6) .. extend_string("Server Address", 25) ..
		extend_string("Client Address", 25) .. extend_string("State", 15) ..
		"TID/PID/Program Name")
	for tid, t in pairs(threads) do
		for _, info in pairs(t.fdtable) do
			local client, state = "0.0.0.0:*", "LISTEN"
			if info.cip ~= nil then
				client, state = info.cip .. ":" .. info.cport, "ESTABLISHED"
			end
			print(extend_string(info.l4proto, 6) ..
				extend_string(info.sip .. ":" .. info.sport, 25) ..
				extend_string(client, 25) .. extend_string(state, 15) ..
				tid .. "/" .. t.pid .. "/" .. t.comm)
		end
	end
end)
