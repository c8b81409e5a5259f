-- thread_numbers.lua - test chisel: prints the numeric fields of
-- sysdig.get_thread_table() at the end of a capture, one sorted line per
-- thread, so that ours and the reference can be compared (tid, pid, ptid,
-- flags, fdlimit, uid, gid, nchilds, vm and page fault counters are
-- uint32 in the reference: a tid or fdlimit of -1 is 4294967295).
description = "prints the numbers of the thread table (test)"
short_description = "thread table numbers (test)"
category = "Tests"
args = {}

function on_init()
	return true
end

function on_capture_end()
	local rows = {}
	for _, t in pairs(sysdig.get_thread_table()) do
		rows[#rows + 1] = table.concat({tostring(t.tid), tostring(t.pid), tostring(t.ptid),
			tostring(t.flags), tostring(t.fdlimit), tostring(t.uid), tostring(t.gid),
			tostring(t.nchilds), tostring(t.vmsize_kb), tostring(t.vmrss_kb),
			tostring(t.vmswap_kb), tostring(t.pfmajor), tostring(t.pfminor), t.comm}, " ")
	end
	table.sort(rows)
	for _, r in ipairs(rows) do
		print(r)
	end
end
