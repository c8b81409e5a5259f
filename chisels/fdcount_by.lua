--[[
fdcount_by.lua - number of distinct FDs (fd number + name) seen per value of a field.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Groups all the active FDs based on the given filter field, and returns the fd count for each key. For example, it can be used to list the number of connections per process or per IP endpoint."
short_description = "FD count, aggregated by an arbitrary filter field"
category = "I/O"

args = {
	{ name = "key", description = "The filter field used for grouping", argtype = "string" },
}

require "common"

local key_name = ""
local fkey, ffdnum, ffdname, ftime
local groups = {}	-- key -> { n = distinct fds, seen = { [fd..name] = true } }

function on_set_arg(name, val)
	if name ~= "key" then
		return false
	end
	key_name = val
	return true
end

function on_init()
	fkey = chisel.request_field(key_name)
	ffdnum = chisel.request_field("fd.num")
	ffdname = chisel.request_field("fd.name")
	ftime = chisel.request_field("evt.time")
	return true
end

function on_event()
	local key = evt.field(fkey)
	local num = evt.field(ffdnum)
	local name = evt.field(ffdname)
	if key == nil or num == nil or num <= 0 or name == nil or name == "" then
		return true
	end
	local g = groups[key]
	if g == nil then
		g = { n = 0, seen = {} }
		groups[key] = g
	end
	local id = tostring(num) .. name
	if not g.seen[id] then
		g.seen[id] = true
		g.n = g.n + 1
	end
	return true
end

function on_capture_end()
	-- like sysdig, this reads the current event: with no event delivered
	-- it fails with "invalid call to evt.field()" and prints nothing
	evt.field(ftime)
	for key, g in pairs_top_by_val(groups, 0, function(t, a, b) return t[b].n < t[a].n end) do
		print(key, g.n)
	end
	return true
end
