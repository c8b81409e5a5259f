--[[
table_generator.lua - the generic "group by keys, sum a value, print the
top N" engine behind the top* and fd*_by chisels (hidden: run through
chisel.exec).  Keys are field names joined by commas; an event counts only
when every key field has a value and the value field is a number > 0.
Reading a file prints one table at the end; live it prints every second
(the loop is in live_table.lua).
--]]

description = "Given two filter fields, a key and a value, this chisel creates and renders a table to the screen."
short_description = "Filter on a key and value"
category = "Filter"
hidden = true

args = {
	{ name = "keys", description = "comma-separated list of filter fields to use for grouping", argtype = "string" },
	{ name = "keydescs", description = "comma separated list of human readable descriptions for the key", argtype = "string" },
	{ name = "value", description = "the value to count for every key", argtype = "string" },
	{ name = "valuedesc", description = "human readable description for the value", argtype = "string" },
	{ name = "filter", description = "the filter to apply", argtype = "string" },
	{ name = "top_number", description = "maximum number of elements to display", argtype = "string" },
	{ name = "value_units", description = "how to render the values in the result. Can be 'bytes', 'time', 'timepct', or 'none'.", argtype = "string" },
}

require "common"
local live_table = require "live_table"
-- per-event calls kept in locals (no global/table lookups in on_event)
local event_key, field = live_table.event_key, evt.field

local info = {
	key_fld = {}, key_desc = {}, value_fld = "", value_desc = "",
	value_units = "none", top_number = 0, output_format = "normal",
}
local filter = ""
local key_handles = {}
local value_handle
local totals = {}

local setters = {
	keys = function(v) info.key_fld = split(v, ",") end,
	keydescs = function(v) info.key_desc = split(v, ",") end,
	value = function(v) info.value_fld = v end,
	valuedesc = function(v) info.value_desc = v end,
	filter = function(v) filter = v end,
	top_number = function(v) info.top_number = tonumber(v) or 0 end,
	value_units = function(v) info.value_units = v end,
}

function on_set_arg(name, val)
	local set = setters[name]
	if not set then
		return false
	end
	set(val)
	return true
end

function on_init()
	if #info.key_fld ~= #info.key_desc then
		print("error: number of entries in keys different from number entries in keydescs")
		return false
	end
	key_handles = live_table.request_fields(info.key_fld)
	value_handle = chisel.request_field(info.value_fld)
	if filter ~= "" then
		chisel.set_filter(filter)
	end
	return true
end

function on_event()
	local key = event_key(key_handles)
	if key == nil then
		return false
	end
	local v = field(value_handle)
	if type(v) == "number" and v > 0 then
		totals[key] = (totals[key] or 0) + v
	end
	return true
end

live_table.install(info, function() return totals end, function() totals = {} end)
