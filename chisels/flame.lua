--[[
flame.lua - the flame graph page of sysdig tracers: from the tracer spans
of a capture (applications writing ">:ID:TAG1.TAG2::" and "<:ID:TAG1.TAG2::"
to /dev/null) builds the tree of nested spans of each transaction, with the
time spent in each node and the log lines (writes to stdout, stderr or a
log file) that the thread wrote while a span was open, and prints an HTML
page embedding three trees as JSON: the average, the fastest ("min") and
the slowest ("max") complete transaction.  Part of the sysdig-c chisel
library: not listed (it has no description, as in sysdig 0.29.3), same
output as sysdig 0.29.3's chisel.
--]]

disabled_description = "flame graph of the tracer spans of a capture, as an HTML page (sysdig-c)"
short_description = "tracer spans as a flame graph page"
category = "Performance"

args = {}

require "common"
local json = require "dkjson"

local MAX_DEPTH = 256		-- span.tag[0] .. span.tag[MAX_DEPTH]
local WITH_LOGS = true

local f = {}			-- requested fields
local tag_fields = {}
-- transactions[span id][root tag] = node; a node is
-- { tt = total ns, t = own ns, c = 1 once its exit was seen, ch = children by tag,
--   n = count (root nodes), id, cont, exe, logs = { log lines } }
local transactions = {}
-- open_spans[tid][span id] = tree of the tags entered, { [tag] = { ch = ..., r = true on the last } },
-- the place where the thread's log lines go while the span is open
local open_spans = {}

local PAGE_TOP = [[<!DOCTYPE html>
<html>
    <head>
        <meta charset="utf-8">
        <meta http-equiv="X-UA-Compatible" content="IE=edge">
        <title>Flame UI</title>
        <meta name="description" content="">
        <meta name="viewport" content="width=device-width, initial-scale=1">

        
<meta name="flame-ui/config/environment" content="%7B%22modulePrefix%22%3A%22flame-ui%22%2C%22environment%22%3A%22development%22%2C%22baseURL%22%3A%22/%22%2C%22locationType%22%3A%22hash%22%2C%22EmberENV%22%3A%7B%22FEATURES%22%3A%7B%7D%7D%2C%22APP%22%3A%7B%22name%22%3A%22flame-ui%22%2C%22version%22%3A%220.0.0+3fc5f790%22%7D%2C%22contentSecurityPolicy%22%3A%7B%22default-src%22%3A%22%27none%27%22%2C%22script-src%22%3A%22%27self%27%20%27unsafe-inline%27%22%2C%22style-src%22%3A%22%27self%27%20%27unsafe-inline%27%22%2C%22font-src%22%3A%22%27self%27%22%2C%22connect-src%22%3A%22%27self%27%22%2C%22img-src%22%3A%22%27self%27%22%2C%22media-src%22%3A%22%27self%27%22%7D%2C%22contentSecurityPolicyHeader%22%3A%22Content-Security-Policy-Report-Only%22%2C%22exportApplicationGlobal%22%3Atrue%7D" />

        <link rel="stylesheet" href="https://cdn.rawgit.com/draios/flame-ui/master/build/assets/vendor.css">
        <link rel="stylesheet" href="https://cdn.rawgit.com/draios/flame-ui/master/build/assets/flame-ui.css">

        
    </head>
    <body>
        

        <script src="https://cdn.rawgit.com/draios/flame-ui/master/build/assets/vendor.js"></script>
        <script src="https://cdn.rawgit.com/draios/flame-ui/master/build/assets/flame-ui.js"></script>

        

        <script>
            window.transactions = {
]]

local PAGE_BOTTOM = [[            };
        </script>
    </body>
</html>

]]

function on_set_arg(name, val)
	return true
end

function on_init()
	for j = 0, MAX_DEPTH do
		tag_fields[j + 1] = chisel.request_field("span.tag[" .. j .. "]")
	end
	f.id = chisel.request_field("span.id")
	f.duration = chisel.request_field("span.duration")
	f.container = chisel.request_field("container.name")
	f.exe = chisel.request_field("proc.exeline")
	f.buffer = chisel.request_field("evt.buffer")
	f.dir = chisel.request_field("evt.dir")
	f.tid = chisel.request_field("thread.tid")
	f.time = chisel.request_field("evt.time")
	if WITH_LOGS then
		chisel.set_filter("(evt.type=tracer) or (evt.is_io_write=true and evt.dir=< and (fd.num=1 or fd.num=2 or fd.name contains log))")
	else
		chisel.set_filter("evt.type=tracer and evt.dir=<")
	end
	return true
end

local function span_tags()
	local tags = {}
	for j = 1, #tag_fields do
		local v = evt.field(tag_fields[j])
		if v == nil then break end
		tags[j] = v
	end
	return tags
end

-- a log line of a thread goes to the innermost open span of its first
-- open transaction (following the first child at each level)
local function attach_log(spans)
	for _, tree in pairs(spans) do
		local node = nil
		local level = tree
		while true do
			local _, child = next(level)
			if child == nil then break end
			node = child
			level = child.ch
		end
		if node ~= nil then
			node.l = node.l or {}
			local s, ns = evt.get_ts()
			table.insert(node.l, { t = evt.field(f.time), th = s, tl = ns,
				tid = evt.field(f.tid), b = evt.field(f.buffer) })
		end
		return
	end
end

local function span_entered(tid, id, tags)
	open_spans[tid] = open_spans[tid] or {}
	open_spans[tid][id] = open_spans[tid][id] or {}
	local level = open_spans[tid][id]
	for j, tag in ipairs(tags) do
		level[tag] = level[tag] or { ch = {} }
		if j == #tags then level[tag].r = true end
		level = level[tag].ch
	end
end

-- record the exit of the span tags[1..n] of transaction id; returns true
-- when its log tree can be dropped
local function span_exited(tree, logs, tags, latency, id)
	local done = false
	local parent_logs = false
	local depth = #tags

	for j, tag in ipairs(tags) do
		if tree == nil then break end
		local log_node = logs ~= nil and logs[tag] or nil
		local node = tree[tag]
		if j == depth then
			local lines = log_node and log_node.l or nil
			if node == nil then
				node = { t = latency, tt = latency, n = (j == 1) and 0 or nil }
				tree[tag] = node
			else
				node.tt = node.tt + latency
			end
			node.cont = evt.field(f.container)
			node.exe = evt.field(f.exe)
			node.c = 1
			node.logs = lines
			if log_node ~= nil and not parent_logs then
				done = true
			else
				if logs ~= nil then logs[tag] = nil end
				log_node = nil
				logs = nil
			end
		elseif node == nil then
			node = { tt = 0 }
			if j == 1 then
				node.n = 0
				if j ~= depth - 1 then node.id = id end
			end
			tree[tag] = node
		end
		node.ch = node.ch or {}
		if depth == 1 then node.n = node.n + 1 end
		if log_node ~= nil then parent_logs = log_node.r ~= nil end
		tree = node.ch
		if logs ~= nil then logs = log_node and log_node.ch or nil end
	end
	return done
end

function on_event()
	local tid = evt.field(f.tid)
	if evt.get_type() ~= "tracer" then
		if open_spans[tid] ~= nil then attach_log(open_spans[tid]) end
		return true
	end

	local id = evt.field(f.id)
	local tags = span_tags()
	if evt.field(f.dir) == ">" then
		span_entered(tid, id, tags)
		return true
	end

	local latency = evt.field(f.duration)
	if latency == nil then return true end
	transactions[id] = transactions[id] or {}
	local logs = open_spans[tid] and open_spans[tid][id] or nil
	if span_exited(transactions[id], logs, tags, latency, id) then
		open_spans[tid][id] = nil
		if next(open_spans[tid]) == nil then open_spans[tid] = nil end
	end
	return true
end

-------------------------------------------------------------------------------
-- the three trees
-------------------------------------------------------------------------------
local function complete(node)
	if node.c ~= 1 then return false end
	for _, child in pairs(node.ch or {}) do
		if not complete(child) then return false end
	end
	return true
end

-- sum tree into dst[key] (times and counts added, logs joined)
local function merge(dst, key, node)
	local d = dst[key]
	if d == nil then
		dst[key] = copytable(node)
		return
	end
	d.tt = d.tt + node.tt
	if d.n then d.n = d.n + 1 end
	if node.logs then
		d.logs = d.logs or {}
		concattable(d.logs, node.logs)
	end
	if node.ch then
		d.ch = d.ch or {}
		for k, child in pairs(node.ch) do merge(d.ch, k, child) end
	end
end

local function keep_if(dst, key, node, better)
	if dst[key] == nil or better(node.tt, dst[key].tt) then dst[key] = node end
end

-- own time of a node: its total minus its children's; children that ran
-- concurrently (their sum exceeds the parent) are cut to the longest
local function own_times(node)
	local sum, longest, longest_node, n = 0, 0, nil, 0
	for _, child in pairs(node.ch or {}) do
		local tt = own_times(child)
		sum = sum + tt
		if tt > longest then longest, longest_node = tt, child end
		n = n + 1
	end
	if node.tt >= sum then
		node.t = node.tt - sum
	else
		node.t = node.tt - longest
		node.nconc = n
		for k, child in pairs(node.ch) do
			if child ~= longest_node then node.ch[k] = nil end
		end
	end
	return node.tt
end

local function scale(node, by)
	node.t = node.t / by
	node.tt = node.tt / by
	for _, child in pairs(node.ch or {}) do scale(child, by) end
end

local function print_tree(label, roots)
	local doc = { [""] = { ch = roots, t = 0, tt = 0 } }
	print('"' .. label .. '": ' .. json.encode(doc, { indent = true }) .. ",")
end

function on_capture_end()
	local avg, min, max = {}, {}, {}
	for _, roots in pairs(transactions) do
		for key, node in pairs(roots) do
			if complete(node) then
				merge(avg, key, node)
				keep_if(max, key, node, function(a, b) return a > b end)
				keep_if(min, key, node, function(a, b) return a < b end)
			end
		end
	end
	for _, node in pairs(avg) do own_times(node) end
	for _, node in pairs(avg) do scale(node, node.n) end
	print(PAGE_TOP)
	print_tree("avg", avg)
	for _, node in pairs(min) do own_times(node) end
	print_tree("min", min)
	for _, node in pairs(max) do own_times(node) end
	print_tree("max", max)
	print(PAGE_BOTTOM)
end
