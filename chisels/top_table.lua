--[[
top_table.lua - shared body of the top* and fd*_by chisels that are a
table_generator table (loaded with `require "top_table"`): they only pick
the key fields and the value, and run the hidden table_generator chisel
with chisel.exec.  Not a chisel itself (it defines no description).
--]]

local M = {}

-- the process key of topprocs_errors, topprocs_file and topprocs_net
M.PROCESS = { "proc.name,proc.pid", "Process,PID",
	"proc.name,proc.pid,thread.vtid,container.name", "Process,Host_pid,Container_pid,container.name" }

local function exec(keys, descs, value)
	chisel.exec("table_generator", keys, descs, value[1], value[2], value[3], value[4], value[5])
end

--[[ keys: { fields, titles [, fields with -pc, titles with -pc] } (fields
and titles comma-separated); value: { field, title, filter, top number,
units } as table_generator takes them.  The chisel takes no argument. ]]
function M.install(keys, value)
	function on_set_arg(name, val)
		return false
	end

	function on_init()
		local fields, titles = keys[1], keys[2]
		if keys[3] and sysdig.is_print_container_data() then
			fields, titles = keys[3], keys[4]
		end
		exec(fields, titles, value)
		return true
	end
end

-- like install, keyed by the chisel's argument "key" (used as its title too)
function M.install_by_key(value)
	local key = ""

	function on_set_arg(name, val)
		if name ~= "key" then
			return false
		end
		key = val
		return true
	end

	function on_init()
		exec(key, key, value)
		return true
	end
end

return M
