--[[
dump_around.lua - shared by the around, spy_logs and spy_syslog chisels
(loaded with `require "dump_around"`): remembers (timestamp, thread) of the
events of interest and, at the end of a file capture, asks sysdig to run
again (sysdig.run_app) reading the same file and writing to a dump file the
events of the same threads within +/- range ms of them (evt.around).
Not a chisel itself (it defines no description).
--]]

require "common"

local M = {}
M.__index = M

function M.new(range_ms)
	return setmetatable({ range_ms = range_ms or "1000", entries = {}, tid_field = nil }, M)
end

-- call from on_init (the handle is needed by note())
function M:request_fields()
	self.tid_field = chisel.request_field("thread.tid")
end

-- remember the current event
function M:note()
	local s, ns = evt.get_ts()
	table.insert(self.entries, { s, ns, evt.field(self.tid_field) })
end

function M:count()
	return #self.entries
end

-- the argument string of the second run
function M:run_args(dump_file)
	local terms = {}
	for i, e in ipairs(self.entries) do
		terms[i] = "(evt.around[" .. ts_to_str(e[1], e[2]) .. "]=" .. self.range_ms ..
			" and thread.tid=" .. e[3] .. ")"
	end
	return "-F -r" .. sysdig.get_evtsource_name() .. " -w" .. dump_file .. " " .. table.concat(terms, " or ")
end

function M:run(dump_file)
	sysdig.run_app(self:run_args(dump_file))
end

return M
