--[[
netstat.lua - list the network connections at the first event, like netstat.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Print the system network connections, with an output that is similar to the one of netstat. Output is at a point in time; adjust this in the filter. It defaults to time of evt.num=0"
short_description = "List (and optionally filter) network connections."
category = "System State"

args = {
	{ name = "filter", description = "A sysdig-like filter expression that allows restricting the FD list. E.g. 'proc.name=foo and fd.port=80'.", argtype = "filter", optional = true },
}

require "common"

local filter = "(fd.type=ipv4 or fd.type=ipv6)"
local started = false
local got_event = false

function on_set_arg(name, val)
	if name ~= "filter" then
		return false
	end
	filter = filter .. "and (" .. val .. ")"
	return true
end

function on_init()
	return true
end

function on_capture_start()
	started = true
	return true
end

function on_event()
	got_event = true
	sysdig.end_capture()
	return false
end

function on_capture_end()
	if not started then
		return
	end
	if not got_event then
		print("empty capture or no event matching the filter")
		return
	end
	local threads = sysdig.get_thread_table(filter)
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
end
