--[[
memcachelog.lua - log memcached get/set commands (time, method, object
size, key) from the I/O of memcached or of port 11211, optionally only one
method and, for set, only objects of at least a given size.  Part of the
sysdig-c chisel library (same name, arguments and output as sysdig
0.29.3's chisel).
--]]

description = "Show a log of memcached commands (get/set)"
short_description = "memcached requests log"
category = "Application"

args = {
	{ name = "method", description = "get/set", optional = true },
	{ name = "size", description = "object size", optional = true },
}

local f = {}
local only_method = nil
local min_size = nil

-- words of s separated by single spaces (empty words kept)
local function words(s)
	local out = {}
	for w in (s .. " "):gmatch("(.-) ") do
		out[#out + 1] = w
	end
	return out
end

function on_set_arg(name, val)
	if name == "method" then
		only_method = val
	elseif name == "size" then
		min_size = tonumber(val)
	else
		return false
	end
	return true
end

function on_init()
	sysdig.set_filter("(fd.sport=11211 or proc.name=memcached) and evt.is_io=true")
	sysdig.set_snaplen(4096)
	f.data = chisel.request_field("evt.arg[1]")
	f.datetime = chisel.request_field("evt.datetime")
	return true
end

function on_event()
	local w = words(evt.field(f.data))
	local method, key = w[1], w[2]
	if string.match(method, "^[gs]et") == nil or key == nil then
		return true
	end
	local size = tonumber(w[5]) or 0
	if only_method ~= nil and only_method ~= method then
		return true
	end
	if only_method == "set" and size < min_size then
		return true
	end
	print(string.format("%s method=%s size=%dB key=%s", evt.field(f.datetime), method, size, key))
	return true
end
