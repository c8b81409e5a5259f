--[[
tracers_2_statsd.lua - send the duration of every tracer span (exit
tracer events) to a statsd server as a timer named after the span tags.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel, which, like this one, always sends to
127.0.0.1:8125 whatever the arguments say); the client is statsd.lua.
--]]

description = "Converts sysdig span duration data into statsd metrics and pipes them to the given statsd server. See https://github.com/draios/sysdig/wiki/Tracers for more information."
short_description = "Export spans duration as statds metrics."
category = "Tracers"

args = {
	{ name = "server_addr", description = "The address of the statsd server to send data to", argtype = "string", optional = true },
	{ name = "server_port", description = "The UDP port to use", argtype = "string", optional = true },
}

local statsd_client = require "statsd"

local client = nil
local ftags, flatency = nil, nil
local server = { addr = "127.0.0.1", port = 8125 }	-- accepted, not used (see above)

function on_set_arg(name, val)
	if name == "server_addr" then
		server.addr = val
	elseif name == "server_port" then
		server.port = tonumber(val)
	else
		return false
	end
	return true
end

function on_init()
	client = statsd_client({ host = "127.0.0.1" })
	ftags = chisel.request_field("span.tags")
	flatency = chisel.request_field("span.duration")
	chisel.set_filter("evt.type=tracer and evt.dir=<")
	return true
end

function on_event()
	local latency = evt.field(flatency)
	if latency then
		client:timer(evt.field(ftags), tonumber(latency) / 1000000)
	end
	return true
end
