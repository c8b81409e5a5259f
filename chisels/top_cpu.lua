--[[
top_cpu.lua - shared body of the topprocs_cpu and topcontainers_cpu
chisels (loaded with `require "top_cpu"`): sums thread.cpu of the procinfo
events by a list of key fields and prints the top 10 as CPU% (the table
loop is in live_table.lua).  Not a chisel itself (it defines no
description).
--]]

local live_table = require "live_table"

local M = {}

--[[ key_fld, key_desc: the grouping fields and their column titles;
pc_key_fld, pc_key_desc (optional): the ones used with -pc/-pcontainer ]]
function M.install(key_fld, key_desc, pc_key_fld, pc_key_desc)
	local info = {
		key_fld = key_fld,
		key_desc = key_desc,
		value_fld = "thread.exectime",
		value_desc = "CPU%",
		value_units = "timepct",
		top_number = 10,
		output_format = "normal",
	}
	local keys, fcpu
	local usage = {}

	function on_init()
		if pc_key_fld and sysdig.is_print_container_data() then
			info.key_fld = pc_key_fld
			info.key_desc = pc_key_desc
		end
		keys = live_table.request_fields(info.key_fld)
		chisel.request_field(info.value_fld)
		fcpu = chisel.request_field("thread.cpu")
		chisel.set_filter("evt.type=procinfo")
		return true
	end

	function on_event()
		local key = live_table.event_key(keys)
		if key == nil then
			return false
		end
		-- thread.cpu is a percentage: scale it to "ns per second"
		local cpu = evt.field(fcpu) * 10000000
		usage[key] = (usage[key] or 0) + cpu
		return true
	end

	live_table.install(info, function() return usage end, function() usage = {} end)
end

return M
