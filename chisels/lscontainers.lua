--[[
lscontainers.lua - stop at the first event and list the container table
(type, image, name, id), or dump it as a Lua structure with the argument
"desc".  Part of the sysdig-c chisel library (same name, arguments and
output as sysdig 0.29.3's chisel); the first-event logic is in snapshot.lua.
--]]

description = "List the running containers and the metadata"
short_description = "List the running containers"
category = "System State"

args = {
	{ name = "desc", description = "Prints the result set as a data structure", argtype = "string", optional = true },
}

local snapshot = require "snapshot"

local as_structure = false

function on_set_arg(name, val)
	if name == "desc" and val == "desc" then
		as_structure = true
		return true
	end
	return false
end

local COLS = { { "type", 15 }, { "image", 16 }, { "name", 20 }, { "id", 13 } }

local function row(get)
	local line = ""
	for _, c in ipairs(COLS) do
		line = line .. extend_string(get(c), c[2])
	end
	print(line)
end

snapshot.at_first_event(function()
	local containers = sysdig.get_container_table()
	if as_structure then
		print(st(containers))
		return
	end
	row(function(c) return "container." .. c[1] end)
	row(function(c) return string.rep("-", c[2]) end)
	for _, ct in snapshot.sorted(containers) do
		row(function(c) return tostring(ct[c[1]]) end)
	end
end, true)
