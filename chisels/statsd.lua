--[[
statsd.lua - minimal statsd client over sysdig.udp_send (loaded with
`require "statsd"`, used by tracers_2_statsd).  Calling the module with
{ host =, port =, namespace = } connects the UDP peer and returns a client
with gauge, counter, increment, decrement, timer, histogram, meter and set
methods, each sending one "name:value|kind" datagram (statsd protocol; the
characters : | @ in names become _).  Not a chisel itself.
--]]

local function message(self, stat, value, kind, rate)
	local name = stat:gsub("[:|@]", "_")
	if self.namespace then
		name = self.namespace .. "." .. name
	end
	local suffix = ""
	if rate ~= nil and rate ~= 1 then
		suffix = "|@" .. rate
	end
	return name .. ":" .. value .. "|" .. kind .. suffix
end

local function send(self, stat, value, kind, rate)
	rate = rate or 1
	if rate ~= 1 and math.random() > rate then
		return
	end
	return sysdig.udp_send(message(self, stat, value, kind, rate))
end

local Client = {}
Client.__index = Client

function Client:gauge(stat, v, rate) return send(self, stat, v, "g", rate) end
function Client:counter(stat, v, rate) return send(self, stat, v, "c", rate) end
function Client:increment(stat, v, rate) return send(self, stat, v or 1, "c", rate) end
function Client:decrement(stat, v, rate) return send(self, stat, -(v or 1), "c", rate) end
function Client:timer(stat, ms) return send(self, stat, ms, "ms") end
function Client:histogram(stat, v) return send(self, stat, v, "h") end
function Client:meter(stat, v) return send(self, stat, v, "m") end
function Client:set(stat, v) return send(self, stat, v, "s") end

return function(options)
	options = options or {}
	sysdig.udp_setpeername(options.host or "127.0.0.1", tostring(options.port or 8125))
	return setmetatable({ namespace = options.namespace }, Client)
end
