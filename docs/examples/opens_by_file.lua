--[[
opens_by_file.lua - the worked example of docs/chisel_api.md: counts the
successful opens of each file and prints the most opened ones at the end
of the capture (or every N seconds with the second argument).

  sysdig-c -r trace.scap -c docs/examples/opens_by_file.lua
  sysdig-c -r trace.scap -c docs/examples/opens_by_file.lua "5 0" proc.name=cat
--]]

-- what -cl and -i show
description = "Counts the successful open, openat and openat2 calls of every file and prints the most opened files, with their counts, at the end of the capture or every INTERVAL seconds."
short_description = "Most opened files"
category = "I/O"

-- positional arguments, in order; "optional" ones may be left out
args = {
	{ name = "top", description = "how many files to print (default 10)", argtype = "int", optional = true },
	{ name = "interval", description = "print and reset every INTERVAL seconds (0: only at the end)", argtype = "int", optional = true },
}

local top = 10
local interval = 0
local counts = {}
local fname

-- one call per argument given on the command line; false rejects it
function on_set_arg(name, val)
	local n = tonumber(val)
	if n == nil or n < 0 then
		io.stderr:write("opens_by_file: " .. name .. " must be a number, not " .. val .. "\n")
		return false
	end
	if name == "top" then top = n else interval = n end
	return true
end

-- before the capture opens: ask for the fields we read and restrict the
-- events this chisel receives
function on_init()
	fname = chisel.request_field("fd.name")
	chisel.set_filter("evt.type in (open, openat, openat2) and evt.dir=< and evt.failed=false")
	if interval > 0 then
		chisel.set_interval_s(interval)
	end
	return true
end

-- every event that passes the filters; the return value only matters with
-- chisel.set_event_formatter (true prints the event)
function on_event()
	local name = evt.field(fname)
	if name ~= nil then
		counts[name] = (counts[name] or 0) + 1
	end
	return true
end

local function print_top()
	local sorted = {}
	for name, n in pairs(counts) do
		sorted[#sorted + 1] = { name = name, n = n }
	end
	-- by count, then by name: the same output on every run
	table.sort(sorted, function(a, b)
		if a.n ~= b.n then return a.n > b.n end
		return a.name < b.name
	end)
	for i = 1, math.min(top, #sorted) do
		print(string.format("%-8d %s", sorted[i].n, sorted[i].name))
	end
end

-- with an interval: the timestamp (s, ns) of the event that ended it
function on_interval(ts_s, ts_ns, delta_ns)
	print("--- " .. os.date("!%H:%M:%S", ts_s))
	print_top()
	counts = {}
	return true	-- false would end the capture
end

function on_capture_end(ts_s, ts_ns, delta_ns)
	if interval == 0 then
		print_top()
	end
end
