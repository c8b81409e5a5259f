--[[
bottlenecks.lua - the slowest system calls of the capture: for each of the
10 exit events with the highest latency, the enter line of the same thread
and the exit line.  Part of the sysdig-c chisel library (same name,
arguments and output as sysdig 0.29.3's chisel).
--]]

local TOP = 10

description = "Lists the " .. TOP .. " system calls that took the longest to return during the capture interval."
short_description = "Slowest system calls"
category = "Performance"

args = {}

local f = {}
local slowest = {}	-- { latency, enter line, exit line }, slowest first
local last_enter = {}	-- tid -> enter line

function on_init()
	for _, name in ipairs({ "evt.num", "evt.type", "evt.args", "evt.latency", "proc.name", "thread.tid" }) do
		f[name] = chisel.request_field(name)
	end
	return true
end

local function line(dir, secs, nsecs, etype)
	return string.format("%d) %d.%.9d %s (%d) %s %s %s", evt.field(f["evt.num"]), secs, nsecs,
		evt.field(f["proc.name"]) or "", evt.field(f["thread.tid"]), dir, etype,
		evt.field(f["evt.args"]))
end

local function record(latency, tid, etype)
	for pos = 1, TOP do
		local cur = slowest[pos]
		if cur == nil or latency > cur[1] then
			local exit = line("<", latency / 1000000000, latency % 1000000000, etype)
			table.insert(slowest, pos, { latency, last_enter[tid], exit })
			break
		end
	end
	if #slowest > TOP then
		table.remove(slowest)
	end
end

function on_event()
	local latency = evt.field(f["evt.latency"])
	local tid = evt.field(f["thread.tid"])
	local etype = evt.field(f["evt.type"])
	if etype == "switch" then
		return true
	end
	if latency == 0 then
		last_enter[tid] = line(">", 0, 0, etype)
	elseif latency ~= nil then
		record(latency, tid, etype)
	end
	return true
end

function on_capture_end()
	for _, s in ipairs(slowest) do
		print(s[2])
		print(s[3])
	end
	return true
end
