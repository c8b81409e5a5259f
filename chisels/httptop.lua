--[[
httptop.lua - top HTTP requests (method, url) by number of calls, average
time or response bytes; printed once at the end of a file, every second
live.  Part of the sysdig-c chisel library (same name, arguments and output
as sysdig 0.29.3's chisel); the parsing is in http.lua.
--]]

description = "Show top HTTP requests by: ncalls, time or bytes"
short_description = "Top HTTP requests"
category = "Application"

args = {
	{ name = "by", description = "Show top HTTP transactions by: ncalls, time or bytes, default is ncalls", argtype = "string", optional = true },
}

require "common"
local live_table = require "live_table"
require "http"

local UNITS = { ncalls = "none", time = "time", bytes = "bytes" }

local vizinfo = {
	key_fld = { "method", "url" },
	key_desc = { "method", "url" },
	value_fld = "ncalls",
	value_desc = "ncalls",
	value_units = "none",
	top_number = 30,
	output_format = "normal",
}

local by = "ncalls"
local with_container = false
local groups = {}	-- key -> list of transactions

function on_set_arg(name, val)
	if name ~= "by" then
		return nil
	end
	if UNITS[val] == nil then
		print("Invalid argument! Valid options: ncalls, bytes, time")
		return false
	end
	by = val
	vizinfo.value_fld = val
	vizinfo.value_desc = val
	vizinfo.value_units = UNITS[val]
	return true
end

function on_init()
	http_init()
	with_container = sysdig.is_print_container_data()
	if with_container then
		table.insert(vizinfo.key_fld, 1, "container")
		table.insert(vizinfo.key_desc, 1, "container")
	end
	return true
end

local function group_key(tr)
	local key = string.format("%s\001\001%s", tr.request.method, tr.request.url)
	if with_container then
		key = tr.container .. "\001\001" .. key
	end
	return key
end

local function add_transaction(tr)
	local key = group_key(tr)
	groups[key] = groups[key] or {}
	table.insert(groups[key], tr)
end

function on_event()
	run_http_parser(evt, add_transaction)
end

-- list of transactions -> the value shown
local function value_of(list)
	if by == "ncalls" then
		return #list
	end
	local sum = 0
	for _, tr in ipairs(list) do
		if by == "bytes" then
			sum = sum + tr.response.length
		else
			sum = sum + tr.response.ts - tr.request.ts
		end
	end
	if by == "time" then
		return sum / #list
	end
	return sum
end

-- the value of every group
local function totals()
	local values = {}
	for key, list in pairs(groups) do
		values[key] = value_of(list)
	end
	return values
end

live_table.install(vizinfo, totals, function() groups = {} end)
