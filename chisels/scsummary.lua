--[[
scsummary.lua - a system call summary with latencies, the way `strace -c`,
`perf trace -s` and bpftrace's hist() give one: per system call the number
of calls, of errors (and which errno), the total, min, avg, max, p50 and p99
time and the share of the time; optionally one table per process or per
thread, and a log2 histogram of each call's latency.  Live, on files, and
with any filter (e.g. proc.name=make).  A sysdig-c chisel (not in 0.29.3).

What is counted: every syscall exit event (a call is counted when it
returns, as strace does), its latency is evt.latency (exit minus enter
time of the same thread).  The child's side of clone/fork/vfork/clone3
(return value 0) is not a call of its own.  An error is a return value
in -4095..-1, named by evt.res.  Calls that never return (exit,
exit_group) are not counted.  Percentiles are nearest-rank over the
exact latencies (up to 262144 calls per line; beyond that they come from
a log-linear histogram, 16 buckets per power of two, and are marked "~").  Times are in microseconds with ns
resolution.
--]]

description = "Summary of the system calls seen: for each syscall the number of calls and of errors (with the errno names), the total, min, avg, max, p50 and p99 latency and its share of the time, like strace -c. The first argument groups the tables by process (proc) or thread (thread); the second (hist) adds a log2 latency histogram per syscall. Combine with a filter, e.g. sysdig -c scsummary proc.name=make, or sysdig -c scsummary 'proc hist' proc.name=make."
short_description = "Syscall summary with latencies (strace -c) [sysdig-c]"
category = "Performance"

args = {
	{ name = "group_by", description = "none (one table, the default), proc (one table per process) or thread (one per thread)", argtype = "string", optional = true },
	{ name = "histogram", description = "hist: print a log2 histogram of each syscall's latency; nohist (the default) does not", argtype = "string", optional = true },
}

local EXACT_MAX = 262144	-- exact latencies kept per line
local SUB = 16			-- linear sub-buckets per power of two (estimates)
local CLONES = { clone = true, fork = true, vfork = true, clone3 = true }

local group_by = "none"
local with_hist = false
local f = {}
local groups = {}		-- group key -> { label, calls = { syscall -> line } }
local ngroups = 0

function on_set_arg(name, val)
	if name == "group_by" then
		if val ~= "none" and val ~= "proc" and val ~= "thread" then
			io.stderr:write("scsummary: group_by is none, proc or thread, not '" .. val .. "'\n")
			return false
		end
		group_by = val
	elseif name == "histogram" then
		if val ~= "hist" and val ~= "nohist" then
			io.stderr:write("scsummary: histogram is hist or nohist, not '" .. val .. "'\n")
			return false
		end
		with_hist = (val == "hist")
	else
		return false
	end
	return true
end

function on_init()
	f.type = chisel.request_field("evt.type")
	f.rawres = chisel.request_field("evt.rawres")
	f.res = chisel.request_field("evt.res")
	f.latency = chisel.request_field("evt.latency")
	f.pname = chisel.request_field("proc.name")
	f.pid = chisel.request_field("proc.pid")
	f.tid = chisel.request_field("thread.tid")
	chisel.set_filter("evt.dir=< and evt.type!=tracer")
	return true
end

-------------------------------------------------------------------------------
-- one line of a table: the calls of one syscall
-------------------------------------------------------------------------------
local function log2(ns)
	local b = 0
	while ns >= 2 do
		ns = math.floor(ns / 2)
		b = b + 1
	end
	return b
end

-- log-linear bucket of ns: the power of two and a sixteenth of it
local function fine_bucket(ns)
	if ns < SUB then return ns end
	local p = log2(ns)
	local width = 2 ^ (p - 4)
	return 2 ^ p + math.floor((ns - 2 ^ p) / width) * width
end

local function new_line()
	return { calls = 0, errors = 0, total = 0, min = nil, max = 0,
		samples = {}, exact = true, fine = {}, log2 = {}, errnos = {} }
end

local function add_call(l, ns, errno)
	l.calls = l.calls + 1
	l.total = l.total + ns
	if l.min == nil or ns < l.min then l.min = ns end
	if ns > l.max then l.max = ns end
	if errno then
		l.errors = l.errors + 1
		l.errnos[errno] = (l.errnos[errno] or 0) + 1
	end
	if l.exact then
		if l.calls > EXACT_MAX then
			l.exact = false
			l.samples = nil
		else
			l.samples[l.calls] = ns
		end
	end
	local fb = fine_bucket(ns)
	l.fine[fb] = (l.fine[fb] or 0) + 1
	local b = ns == 0 and -1 or log2(ns)
	l.log2[b] = (l.log2[b] or 0) + 1
end

-- nearest-rank percentile: the smallest value with at least q% of the
-- calls at or below it; "~" and the bucket's upper end when estimated
local function percentile(l, q)
	local rank = math.max(1, math.ceil(q / 100 * l.calls))
	if l.exact then
		if not l.sorted then
			table.sort(l.samples)
			l.sorted = true
		end
		return l.samples[rank], false
	end
	local keys = {}
	for k in pairs(l.fine) do keys[#keys + 1] = k end
	table.sort(keys)
	local seen = 0
	for _, k in ipairs(keys) do
		seen = seen + l.fine[k]
		if seen >= rank then
			local width = k < SUB and 1 or 2 ^ (log2(k) - 4)
			return math.min(k + width - 1, l.max), true
		end
	end
	return l.max, true
end

-------------------------------------------------------------------------------
-- events
-------------------------------------------------------------------------------
local function group_of()
	if group_by == "proc" then
		local pid = evt.field(f.pid)
		return "pid " .. tostring(pid), string.format("%s (pid %s)", evt.field(f.pname) or "?", tostring(pid))
	elseif group_by == "thread" then
		local tid = evt.field(f.tid)
		return "tid " .. tostring(tid), string.format("%s (tid %s, pid %s)", evt.field(f.pname) or "?",
			tostring(tid), tostring(evt.field(f.pid)))
	end
	return "", nil
end

function on_event()
	local name = evt.field(f.type)
	local res = evt.field(f.rawres)
	if name == nil then return true end
	if CLONES[name] and res == 0 then return true end	-- the new task's return
	local errno = nil
	if res ~= nil and res < 0 and res >= -4095 then
		errno = evt.field(f.res) or tostring(res)
	end
	local key, label = group_of()
	local g = groups[key]
	if g == nil then
		g = { label = label, calls = {} }
		groups[key] = g
		ngroups = ngroups + 1
	elseif label ~= nil then
		g.label = label		-- the latest name (after an execve)
	end
	local l = g.calls[name]
	if l == nil then
		l = new_line()
		g.calls[name] = l
	end
	add_call(l, evt.field(f.latency) or 0, errno)
	return true
end

-------------------------------------------------------------------------------
-- output
-------------------------------------------------------------------------------
local function us(ns)
	return string.format("%.3f", ns / 1000)
end

local function pct_text(l, q)
	local v, estimated = percentile(l, q)
	return (estimated and "~" or "") .. us(v)
end

local HEADER = string.format("%-20s %9s %8s %14s %11s %11s %11s %11s %11s %7s",
	"syscall", "calls", "errors", "total(us)", "min(us)", "avg(us)", "max(us)", "p50(us)", "p99(us)", "%time")
local RULE = string.rep("-", #HEADER)

local function sorted_names(calls)
	local names = {}
	for n in pairs(calls) do names[#names + 1] = n end
	table.sort(names, function(a, b)
		if calls[a].total ~= calls[b].total then return calls[a].total > calls[b].total end
		if calls[a].calls ~= calls[b].calls then return calls[a].calls > calls[b].calls end
		return a < b
	end)
	return names
end

local function print_histogram(name, l)
	local lo, hi = nil, nil
	for b in pairs(l.log2) do
		if lo == nil or b < lo then lo = b end
		if hi == nil or b > hi then hi = b end
	end
	local most = 0
	for _, n in pairs(l.log2) do most = math.max(most, n) end
	print(string.format("%s latency (ns), %d calls:", name, l.calls))
	for b = lo, hi do
		local n = l.log2[b] or 0
		local from, to = 0, 1
		if b >= 0 then from, to = 2 ^ b, 2 ^ (b + 1) end
		local bar = string.rep("@", most > 0 and math.floor(n * 40 / most + 0.5) or 0)
		print(string.format("  [%d, %d)%s %10d |%-40s|", from, to,
			string.rep(" ", math.max(0, 26 - #string.format("[%d, %d)", from, to))), n, bar))
	end
end

local function print_group(g)
	local names = sorted_names(g.calls)
	local all = { calls = 0, errors = 0, total = 0 }
	for _, n in ipairs(names) do
		local l = g.calls[n]
		all.calls, all.errors, all.total = all.calls + l.calls, all.errors + l.errors, all.total + l.total
	end
	if g.label then print(g.label) end
	print(HEADER)
	print(RULE)
	for _, n in ipairs(names) do
		local l = g.calls[n]
		print(string.format("%-20s %9d %8d %14s %11s %11s %11s %11s %11s %7s", n, l.calls, l.errors,
			us(l.total), us(l.min), us(math.floor(l.total / l.calls + 0.5)), us(l.max),
			pct_text(l, 50), pct_text(l, 99),
			string.format("%.2f", all.total > 0 and l.total * 100 / all.total or 0)))
	end
	print(RULE)
	print(string.format("%-20s %9d %8d %14s %11s %11s %11s %11s %11s %7s", "total", all.calls, all.errors,
		us(all.total), "", "", "", "", "", "100.00"))
	local errs = {}
	for _, n in ipairs(names) do
		local l = g.calls[n]
		local codes = {}
		for e in pairs(l.errnos) do codes[#codes + 1] = e end
		table.sort(codes, function(a, b)
			if l.errnos[a] ~= l.errnos[b] then return l.errnos[a] > l.errnos[b] end
			return a < b
		end)
		for _, e in ipairs(codes) do
			errs[#errs + 1] = string.format("  %-20s %-14s %9d", n, e, l.errnos[e])
		end
	end
	if #errs > 0 then
		print("")
		print("errors by errno:")
		for _, line in ipairs(errs) do print(line) end
	end
	if with_hist then
		for _, n in ipairs(names) do
			print("")
			print_histogram(n, g.calls[n])
		end
	end
end

function on_capture_end()
	if ngroups == 0 then
		print("no system calls seen")
		return true
	end
	local keys = {}
	local totals = {}
	for k, g in pairs(groups) do
		keys[#keys + 1] = k
		local t = 0
		for _, l in pairs(g.calls) do t = t + l.total end
		totals[k] = t
	end
	table.sort(keys, function(a, b)
		if totals[a] ~= totals[b] then return totals[a] > totals[b] end
		return a < b
	end)
	for i, k in ipairs(keys) do
		if i > 1 then print("") end
		print_group(groups[k])
	end
	return true
end
