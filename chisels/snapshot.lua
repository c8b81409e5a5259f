--[[
snapshot.lua - shared body of the "state at the first event" chisels lsof,
ps, netstat and lscontainers (loaded with `require "snapshot"`): the
capture stops at the first event and the report is printed from
on_capture_end.  Not a chisel itself (it defines no description).
--]]

require "common"

local M = {}

-- pairs of t in ascending key order
function M.sorted(t)
	return pairs_top_by_val(t, 0, function(_, a, b) return a < b end)
end

--[[ Defines on_init, on_capture_start, on_event and on_capture_end: the
first event ends the capture (on_event returns event_result); at the end,
if the capture started, report(got_event) prints the result. ]]
function M.at_first_event(report, event_result)
	local started = false
	local got_event = false

	function on_init()
		return true
	end

	function on_capture_start()
		started = true
		return true
	end

	function on_event()
		got_event = true
		sysdig.end_capture()
		return event_result
	end

	function on_capture_end()
		if started then
			report(got_event)
		end
	end
end

--[[ A thread table report: the optional argument "filter" restricts it
(combine(filter, val) gives the filter to use, by default val itself);
print_threads(threads) prints sysdig.get_thread_table(filter). ]]
function M.threads(filter, combine, print_threads)
	function on_set_arg(name, val)
		if name ~= "filter" then
			return false
		end
		filter = combine and combine(filter, val) or val
		return true
	end

	M.at_first_event(function(got_event)
		if not got_event then
			print("empty capture or no event matching the filter")
			return
		end
		print_threads(sysdig.get_thread_table(filter))
	end, false)
end

return M
