-- thread_filter.lua - test chisel: sysdig.get_thread_table(FILTER) and its
-- three variants at the end of a capture, one sorted line per thread with
-- its sorted fds, so that ours and the reference can be compared on how a
-- filter is evaluated per thread and per fd (at the end, so that nothing
-- is parsed after the calls).  The filter is the command line's
-- (sysdig -c thread_filter FILTER), as wsysdig_summary passes it.
description = "prints the thread tables a filter selects (test)"
short_description = "thread table filter (test)"
category = "Tests"
args = {}

function on_init()
	return true
end

local function fd_line(num, fd)
	local parts = {tostring(num)}
	for _, k in ipairs({"name", "type", "sip", "sport", "cip", "cport", "l4proto"}) do
		if fd[k] ~= nil then
			parts[#parts + 1] = k .. "=" .. tostring(fd[k])
		end
	end
	if fd.is_server ~= nil then
		parts[#parts + 1] = "is_server=" .. tostring(fd.is_server)
	end
	return table.concat(parts, ",")
end

local function dump(label, tt)
	local rows = {}
	for _, t in pairs(tt) do
		local fds = {}
		for num, fd in pairs(t.fdtable) do
			fds[#fds + 1] = fd_line(num, fd)
		end
		table.sort(fds)
		rows[#rows + 1] = tostring(t.tid) .. " " .. tostring(t.pid) .. " " ..
			tostring(t.comm) .. " [" .. table.concat(fds, " ") .. "]"
	end
	table.sort(rows)
	print(label .. ": " .. #rows .. " threads")
	for _, r in ipairs(rows) do
		print(r)
	end
end

function on_capture_end()
	local filter = sysdig.get_filter() or ""
	dump("get_thread_table", sysdig.get_thread_table(filter))
	dump("get_thread_table_nofds", sysdig.get_thread_table_nofds(filter))
	dump("get_thread_table_barebone", sysdig.get_thread_table_barebone(filter))
	dump("get_thread_table_barebone_nofds", sysdig.get_thread_table_barebone_nofds(filter))
end
