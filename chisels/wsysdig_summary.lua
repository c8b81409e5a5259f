--[[
wsysdig_summary.lua - the back end of sysdig-inspect's summary page: for a
trace file, about forty counters (processes, syscalls, file and network
bytes, connections, commands, errors, logs, protocols) sampled on 400
equal slices of the capture, printed as one JSON document.  Part of the
sysdig-c chisel library: hidden (not in -cl or -i), same argument and same
JSON as sysdig 0.29.3's chisel.

It works in two passes.  Run without an argument it only reads the file to
learn the capture's duration, then starts sysdig again through
sysdig.run_app with "-c wsysdig_summary SAMPLES,DURATION FILTER".  The
second run samples every DURATION/399 ns (chisel.set_precise_interval_ns),
prints {"progress": P} every 12 slices and finally
{"progress": 100, "data": {"info": ..., "metrics": [...]}} inside
{"slices": [ ... ]}.
--]]

description = "sysdig-inspect's summary page as JSON: counters of a trace file sampled over 400 slices (internal, run with no argument on a file)."
short_description = "JSON summary for sysdig-inspect"
category = "NA"
hidden = true

args = {
	{ name = "composite_args", description = "SAMPLES,DURATION_NS: set by the chisel itself when it runs its second pass; leave it out.", argtype = "int", optional = true },
}

require "common"
local json = require "dkjson"

local SAMPLES = 400
local PROGRESS_EVERY = math.floor(SAMPLES * 3 / 100)	-- slices between progress lines
local INDEX_FORMAT = 1

local timeline_samples = SAMPLES
local duration = nil	-- ns, given to the second pass; nil in the first
local slices_done = 0
local f = {}		-- requested fields

-------------------------------------------------------------------------------
-- counters
-------------------------------------------------------------------------------
-- Each counter has a per-slice value (slice[id]) and a total over the
-- capture (total[id]).  "set" counters also keep the set of keys seen
-- (files, connections, pids...), whose size is their total at the end.
-- Fields: id, kind (plain/set), excludable, noteworthy, aggregation.
local COUNTERS = {
	{ "procCount", "set", false, false, "avg" },
	{ "containerCount", "set", false, false, "avg" },
	{ "executedCommands", "plain", false, true },
	{ "executedInteractiveCommands", "plain", true, true },
	{ "syscallCount", "plain", false, false },
	{ "fileCount", "set", true, false },
	{ "fileBytes", "plain", false, false },
	{ "fileBytesR", "plain", false, false },
	{ "fileBytesW", "plain", false, false },
	{ "fileCountW", "set", true, false },
	{ "sysFileCountW", "set", true, true },
	{ "connectionCount", "set", true, false },
	{ "netBytes", "plain", false, false },
	{ "netBytesR", "plain", false, false },
	{ "netBytesW", "plain", false, false },
	{ "notifications", "plain", true, true },
	{ "listeningPortCount", "set", true, false, "avg" },
	{ "newConnectionsO", "plain", true, false },
	{ "newConnectionsI", "plain", true, false },
	{ "newConnectionsSsh", "plain", true, true },
	{ "newListeningPorts", "plain", true, true },
	{ "fileDeletionsCount", "plain", true, true },
	{ "newSymLinksCount", "plain", true, true },
	{ "forkCount", "plain", true, false },
	{ "openErrorCount", "plain", true, false },
	{ "connectErrorCount", "plain", true, true },
	{ "sudoInvocations", "plain", true, true },
	{ "setnsInvocations", "plain", true, true },
	{ "signalCount", "plain", true, false },
	{ "segfaultCount", "plain", true, true },
	{ "over1msFileIoCount", "plain", true, false },
	{ "over10msFileIoCount", "plain", true, false },
	{ "over100msFileIoCount", "plain", true, true },
	{ "appLogCount", "plain", true, false },
	{ "appLogCountW", "plain", true, false },
	{ "appLogCountE", "plain", true, true },
	{ "sysLogCount", "plain", true, false },
	{ "sysLogCountW", "plain", true, false },
	{ "sysLogCountE", "plain", true, true },
	{ "dockerEvtsCount", "plain", true, true },
	{ "sysReqCountHttp", "plain", true, true },
	{ "sysErrCountHttp", "plain", true, true },
}

-- well-known server ports, by protocol (bytes on them are counted per
-- protocol); the ports of a protocol in the order its filter names them
local PROTOCOL_PORTS = {
	{ "HTTP", { 8080, 80 } }, { "HTTPs", { 443 } }, { "SSH", { 22 } }, { "DNS", { 53 } },
	{ "Sysdig Agent", { 6666, 6667, 6443 } }, { "etcd", { 2379, 22379 } },
	{ "mysql", { 3306 } }, { "postgres", { 5432 } }, { "redis", { 6379 } },
	{ "couchdb", { 5984 } }, { "fluentd", { 9880 } }, { "statsd", { 8125 } },
	{ "gearman", { 4730 } }, { "hadoop", { 50070, 8020, 9000 } },
	{ "hbase", { 60000, 60010, 60020, 60030 } }, { "kafka", { 2181 } },
	{ "Kyoto Tycoon", { 1978 } }, { "memcached", { 11211 } },
	{ "mongodb", { 27017, 27018, 27019, 28017 } }, { "rabbitmq", { 5672 } },
	{ "riak", { 8087, 8098 } }, { "solr", { 8983 } }, { "voltdb", { 5555 } },
	{ "elasticsearch", "9200-9400" },
}
local protocol_of_port = {}
for _, p in ipairs(PROTOCOL_PORTS) do
	if type(p[2]) == "table" then
		for _, port in ipairs(p[2]) do protocol_of_port[port] = p[1] end
	else
		local lo, hi = p[2]:match("(%d+)-(%d+)")
		for port = tonumber(lo), tonumber(hi) do protocol_of_port[port] = p[1] end
	end
end
local function protocol_counter(name) return "protoBytes_" .. name end

local spec = {}		-- id -> { kind, excludable, noteworthy, aggregation }
local slice = {}	-- id -> { tot = n [, table = {key = value}] }
local total = {}	-- id -> { tot, max, timeLine, table, excludable, noteworthy, aggregation }

local function add_spec(id, kind, excludable, noteworthy, aggregation)
	spec[id] = { kind = kind, excludable = excludable, noteworthy = noteworthy,
		aggregation = aggregation or "sum" }
end

for _, c in ipairs(COUNTERS) do add_spec(c[1], c[2], c[3], c[4], c[5]) end
for _, p in ipairs(PROTOCOL_PORTS) do add_spec(protocol_counter(p[1]), "plain", true, false) end

local DOCKER = "dockerEvtsCount"
local function is_docker_kind(id) return id ~= DOCKER and starts_with(id, DOCKER) end

local function new_slice_counter(id)
	local c = { tot = 0 }
	if spec[id].kind == "set" then c.table = {} end
	return c
end

local function new_total(id)
	local s = spec[id]
	return { tot = 0, max = 0, timeLine = {}, table = s.kind == "set" and {} or nil,
		excludable = s.excludable, noteworthy = s.noteworthy, aggregation = s.aggregation }
end

-- a new slice starts from zero, except for the listening ports, which are
-- a state carried from slice to slice
local function reset_slice()
	for id in pairs(spec) do
		if id ~= "listeningPortCount" or slice[id] == nil then
			slice[id] = new_slice_counter(id)
		end
	end
end

local function count(id, n)
	slice[id].tot = slice[id].tot + (n or 1)
end

-- count key once per slice in the set counter id
local function count_key(id, key)
	if key == nil then return end
	local c = slice[id]
	if c.table[key] == nil then
		c.table[key] = 1
		c.tot = c.tot + 1
	end
end

local function count_docker(kind)
	local id = DOCKER .. tostring(kind)
	if spec[id] == nil then add_spec(id, "plain", true, true) end
	if slice[id] == nil then slice[id] = new_slice_counter(id) end
	count(id)
end

-- close the current slice at time ts_s.ts_ns: add it to the totals
local function close_slice(ts_s, ts_ns)
	local t = sysdig.make_ts(ts_s, ts_ns)
	for id, c in pairs(slice) do
		local g = total[id]
		if g == nil then
			g = new_total(id)
			total[id] = g
		end
		g.tot = g.tot + c.tot
		if c.tot > g.max then g.max = c.tot end
		g.timeLine[#g.timeLine + 1] = { t = t, v = c.tot }
		if c.table then
			for k, v in pairs(c.table) do g.table[k] = v end
		end
	end
end

-------------------------------------------------------------------------------
-- what the events say
-------------------------------------------------------------------------------
local SYSTEM_DIRS = { "/bin/", "/sbin/", "/boot/", "/etc/", "/lib", "/usr/bin/", "/usr/sbin/", "/usr/share/", "/usr/lib" }

local function in_system_dir(path)
	for _, d in ipairs(SYSTEM_DIRS) do
		if starts_with(path, d) then return true end
	end
	return false
end

local function is_log_path(path)
	local log = path:find(".log", 1, true) or path:find("_log", 1, true) or path:find("/var/log", 1, true)
	local archive = path:find(".gz", 1, true) or path:find(".tgz", 1, true)
	return log ~= nil and archive == nil
end

local function count_syslog(sev)
	count("sysLogCount")
	if sev == 4 then
		count("sysLogCountW")
	elseif sev < 4 then
		count("sysLogCountE")
	end
end

-- each non-empty line written to an application log
local function count_app_log(buf)
	for _, line in ipairs(split(buf or "", "\n")) do
		if #line > 0 then
			count("appLogCount")
			local l = line:lower()
			if l:find("warn", 1, true) then
				count("appLogCountW")
			elseif l:find("error", 1, true) or l:find("critic", 1, true) or
				l:find("emergency", 1, true) or l:find("alert", 1, true) then
				count("appLogCountE")
			end
		end
	end
end

local function file_io(path, is_write)
	local len = evt.field(f.buflen) or 0
	path = path or ""
	count_key("fileCount", evt.field(f.fdcontname))
	count("fileBytes", len)
	if is_write then
		count_key("fileCountW", evt.field(f.fdcontname))
		count("fileBytesW", len)
		if in_system_dir(path) then count_key("sysFileCountW", path) end
		local sev = evt.field(f.syslogsev)
		if sev ~= nil then
			count_syslog(sev)
		elseif is_log_path(path) then
			count_app_log(evt.field(f.buffer))
		end
	else
		count("fileBytesR", len)
	end
	local lat = evt.field(f.latency)
	if lat ~= nil and not starts_with(path, "/dev/") then
		if lat > 100000000 then count("over100msFileIoCount") end
		if lat > 10000000 then count("over10msFileIoCount") end
		if lat > 1000000 then count("over1msFileIoCount") end
	end
end

local function net_io(is_write)
	local len = evt.field(f.buflen) or 0
	count_key("connectionCount", evt.field(f.fdcontname))
	count("netBytes", len)
	count(is_write and "netBytesW" or "netBytesR", len)
	local sport = evt.field(f.sport)
	if sport ~= nil and protocol_of_port[sport] then
		count(protocol_counter(protocol_of_port[sport]), len)
	end
	local buf = evt.field(f.buffer) or ""
	if starts_with(buf, "HTTP/") then
		count("sysReqCountHttp")
		if tonumber(split(buf, " ")[2]) ~= 200 then count("sysErrCountHttp") end
	end
end

-- a connect or accept that names a server port
local function new_connection(id)
	local sport = evt.field(f.sport)
	if sport == nil then return end
	count(id)
	if sport == 22 then count("newConnectionsSsh") end
end

local function exit_ok(etype, res)
	local is_write, is_read = evt.field(f.iswrite), evt.field(f.isread)
	if is_write or is_read then
		local fdtype = evt.field(f.fdtype)
		if fdtype == "file" then
			file_io(evt.field(f.fdname), is_write)
		elseif fdtype == "ipv4" or fdtype == "ipv6" then
			net_io(is_write)
		elseif fdtype == "unix" and is_write then
			local sev = evt.field(f.syslogsev)	-- syslog(3) writes to a unix socket
			if sev ~= nil then count_syslog(sev) end
		end
	elseif etype == "execve" then
		count("executedCommands")
		local pname = evt.field(f.pname)
		if pname ~= nil and pname:find("bash", 1, true) then count("executedInteractiveCommands") end
		if evt.field(f.exe) == "sudo" then count("sudoInvocations") end
	elseif etype == "bind" then
		local sport = evt.field(f.sport)
		if sport ~= nil then
			count_key("listeningPortCount", sport)
			count("newListeningPorts")
		end
	elseif etype == "connect" then
		new_connection("newConnectionsO")
	elseif etype == "accept" then
		new_connection("newConnectionsI")
	elseif etype == "unlink" or etype == "unlinkat" then
		count("fileDeletionsCount")
	elseif etype == "symlink" or etype == "symlinkat" then
		count("newSymLinksCount")
	elseif etype == "clone" or etype == "fork" then
		if res > 0 then count("forkCount") end
	elseif etype == "setns" then
		count("setnsInvocations")
	end
end

local EINPROGRESS = -115

local function exit_failed(etype, res)
	if etype == "connect" then
		new_connection("newConnectionsO")
		if res ~= EINPROGRESS then
			local fdtype = evt.field(f.fdtype)
			if fdtype == "ipv4" or fdtype == "ipv6" then count("connectErrorCount") end
		end
	elseif etype == "accept" then
		new_connection("newConnectionsI")
	elseif etype == "open" then
		count("openErrorCount")
	end
end

local function enter_event(etype)
	if etype == "close" then
		-- a closed listening socket is no longer a listening port
		local sport = evt.field(f.sport)
		local ports = slice.listeningPortCount
		if sport ~= nil and evt.field(f.typechar) == "2" and ports.table[sport] ~= nil then
			ports.table[sport] = nil
			ports.tot = ports.tot - 1
		end
	elseif etype == "signaldeliver" then
		count("signalCount")
		if evt.field(f.sig) == "SIGSEGV" then count("segfaultCount") end
	elseif etype == "notification" then
		count("notifications")
	elseif etype == "infra" and evt.field(f.infrasource) == "docker" then
		count(DOCKER)
		count_docker(evt.field(f.infraname))
	end
end

-------------------------------------------------------------------------------
-- the state tables
-------------------------------------------------------------------------------
local function listening_ports_at_start()
	local ports, n = {}, 0
	for _, t in pairs(sysdig.get_thread_table_barebone(sysdig.get_filter())) do
		for _, fd in pairs(t.fdtable) do
			if fd.is_server and ports[fd.sport] == nil then
				ports[fd.sport] = 1
				n = n + 1
			end
		end
	end
	slice.listeningPortCount.tot = n
	slice.listeningPortCount.table = ports
end

local function sample_processes()
	local pids, n = {}, 0
	for _, t in pairs(sysdig.get_thread_table_barebone_nofds(sysdig.get_filter())) do
		if t.tid == t.pid then
			pids[t.pid] = 1
			n = n + 1
		end
	end
	slice.procCount.tot = n
	slice.procCount.table = pids
end

local function sample_containers()
	local names, n = {}, 0
	for _, c in pairs(sysdig.get_container_table()) do
		names[c.id] = c.name
		n = n + 1
	end
	slice.containerCount.tot = n
	slice.containerCount.table = names
end

-------------------------------------------------------------------------------
-- the JSON document
-------------------------------------------------------------------------------
-- the metrics in output order: counter, name, category, target view, drill
-- down key, then optional fields; desc last
local METRICS = {
	{ "notifications", "Sysdig Secure Notifications", "general", "notifications", "NONE", {},
		'Sysdig Secure notifications. Sysdig secure inserts a "notification" event in the capture stream each time a policy triggers. This metric counts the notifications. Chart it over time to compare the other metrics with the point in time where policies were triggered.' },
	{ "procCount", "Running Processes", "general", "procs", "", {},
		"Total number of processes that were running during the capture" },
	{ "containerCount", "Running Containers", "general", "containers", "", { unless_filter = "container" },
		"Total number of containers that were running during the capture" },
	{ "syscallCount", "System Calls", "general", "syscalls", "", {},
		"Number of system calls performed by any process/container in the system" },
	{ "fileBytes", "File Bytes In+Out", "file", "files", "fd.directory", { targetViewSortingCol = 2 },
		"Amount of bytes read from or written to the file system" },
	{ "fileBytesR", "File Bytes In", "file", "files", "fd.directory", { targetViewSortingCol = 0 },
		"Amount of bytes read from the file system" },
	{ "fileBytesW", "File Bytes Out", "file", "files", "fd.directory", { targetViewSortingCol = 1 },
		"Amount of bytes written to the file system" },
	{ "fileCount", "Accessed Files", "file", "files", "fd.directory",
		{ targetViewFilter = "evt.is_io_read=true", targetViewSortingCol = 2 },
		"Number of files that have been accessed during the capture" },
	{ "fileCountW", "Modified Files", "file", "files", "fd.directory",
		{ targetViewFilter = "evt.is_io_write=true", targetViewSortingCol = 1 },
		"Number of files that have been received writes during the capture" },
	{ "netBytes", "Net Bytes In+Out", "network", "sports", "fd.directory", { targetViewSortingCol = 4 },
		"Amount of bytes read from or written to the network" },
	{ "netBytesR", "Net Bytes In", "network", "sports", "fd.sport", { targetViewSortingCol = 2 },
		"Amount of bytes read from the network" },
	{ "netBytesW", "Net Bytes Out", "network", "sports", "fd.sport", { targetViewSortingCol = 3 },
		"Amount of bytes written to the network" },
	{ "connectionCount", "Active Network Connections", "network", "connections", "fd.sport",
		{ targetViewFilter = "evt.is_io=true", targetViewSortingCol = 8 },
		"Number of network connections that have been accessed during the capture" },
	{ "listeningPortCount", "Listening Ports", "network", "port_bindings", "fd.sport", {},
		"Number of open ports on this system" },
	{ "newListeningPorts", "New Listening Ports", "network", "port_bindings", "fd.sport", {},
		"Number of open ports that have been added during the observation interval" },
	{ "newConnectionsO", "New Outbound Connections", "network", "dig", "NONE",
		{ targetViewTitle = "Connect events", targetViewFilter = "evt.type=connect and evt.dir=< and fd.sport exists" },
		"New client network connections" },
	{ "newConnectionsI", "New Inbound Connections", "network", "dig", "",
		{ targetViewTitle = "Connect events", targetViewFilter = "evt.type=accept and evt.dir=< and fd.sport exists" },
		"New server network connections" },
	{ "executedCommands", "Executed Commands", "security", "spy_users_wsysdig", "", {},
		"Number of new programs that have been executed during the observed interval" },
	{ "executedInteractiveCommands", "Executed Interactive Commands", "security", "spy_users_wsysdig", "NONE",
		{ targetViewFilter = "proc.pname=bash" },
		"Number of new programs that have been executed from a shell during the observed interval" },
	{ "newSymLinksCount", "New Symlinks", "security", "dig", "NONE",
		{ targetViewTitle = "Symlink creations", targetViewFilter = "(evt.type=symlink or evt.type=symlinkat) and evt.dir=< and evt.failed = false" },
		"Number of new symbolic links that were created" },
	{ "sysFileCountW", "Modified System Files", "security", "files", "NONE",
		{ targetViewSortingCol = 1, targetViewFilter = "evt.is_io_write=true" },
		"Number of files that have been accessed during the capture" },
	{ "sudoInvocations", "Sudo Invocations", "security", "dig", "NONE",
		{ targetViewTitle = "Sudo executions", targetViewFilter = "evt.type=execve and evt.arg.exe=sudo" },
		"Number of times the sudo program has been called" },
	{ "setnsInvocations", "Setns Invocations", "security", "dig", "NONE",
		{ targetViewTitle = "Setns executions", targetViewFilter = "evt.type=setns" },
		'Number of times the setns system call has been called. Setns is typically used to "enter" in another container' },
	{ "newConnectionsSsh", "New SSH Connections", "security", "dig", "",
		{ targetViewTitle = "Connect events", targetViewFilter = "(evt.type=accept or evt.type=connect) and evt.dir=< and fd.sport=22" },
		"Client or server connections" },
	{ "fileDeletionsCount", "Deleted Files", "security", "dig", "NONE",
		{ targetViewTitle = "File deletions", targetViewFilter = "evt.type=unlink or evt.type=unlinkat" },
		"Number of files that were deleted" },
	{ "sysReqCountHttp", "HTTP Requests", "performance", "echo", "fd.directory",
		{ targetViewTitle = "HTTP responses", targetViewFilter = '(fd.type=ipv4 or fd.type=ipv6) and evt.buffer contains "HTTP/"' },
		"Number of HTTP requests" },
	{ "sysErrCountHttp", "HTTP Errors", "performance", "echo", "fd.directory",
		{ targetViewTitle = "HTTP responses", targetViewFilter = '(fd.type=ipv4 or fd.type=ipv6) and evt.arg.data startswith "HTTP/" and not evt.arg.data contains "200"' },
		"Number of HTTP responses with code different from 400" },
	{ "openErrorCount", "File Open Errors", "performance", "dig", "fd.directory",
		{ targetViewTitle = "Failed open() calls", targetViewFilter = "evt.type=open and evt.rawres<0" },
		"Count of failed file opens" },
	{ "forkCount", "Fork Count", "performance", "dig", "NONE",
		{ targetViewTitle = "Clone executions", targetViewFilter = "evt.type=clone and evt.rawres=0" },
		"Count of processes and threads that have been created" },
	{ "connectErrorCount", "Failed Connection Attempts", "performance", "dig", "NONE",
		{ targetViewTitle = "Failed connect() calls", targetViewFilter = "evt.type=connect and (fd.type=ipv4 or fd.type=ipv6) and evt.rawres<0 and evt.res!=EINPROGRESS" },
		"Count of failed network connect calls" },
	{ "signalCount", "Received Signals", "performance", "dig", "NONE",
		{ targetViewTitle = "Received signals", targetViewFilter = "evt.type=signaldeliver" },
		"Number of unix signals that have been received by the processes on the system" },
	{ "segfaultCount", "Segmentation Faults", "performance", "dig", "NONE",
		{ targetViewTitle = "List of segfault events", targetViewFilter = "evt.type=signaldeliver and evt.arg.sig=SIGSEV" },
		"Number of process segfaults" },
	{ "over1msFileIoCount", "Slow File I/O calls (1ms+)", "performance", "slow_io", "NONE", { targetViewSortingCol = 1 },
		"Number of file read or write calls that took more than 1ms to return" },
	{ "over10msFileIoCount", "Slow File I/O calls (10ms+)", "performance", "slow_io", "NONE", { targetViewSortingCol = 1 },
		"Number of file read or write calls that took more than 10ms to return" },
	{ "over100msFileIoCount", "Slow File I/O calls (100ms+)", "performance", "slow_io", "NONE", { targetViewSortingCol = 1 },
		"Number of file read or write calls that took more than 100ms to return" },
}

local LOG_FILES = "(fd.name contains .log or fd.name contains _log or fd.name contains /var/log)"
local LOG_METRICS = {
	{ "appLogCount", "App Log Messages", "echo", { targetViewTitle = "Application Log Messages",
		targetViewFilter = "(" .. LOG_FILES .. " and not (fd.name contains .gz or fd.name contains .tgz)) and evt.is_io_write=true" },
		"Number of writes to application log files" },
	{ "appLogCountW", "App Log Warning Messages", "echo", { targetViewTitle = "Warning Application Log Messages",
		targetViewFilter = "(" .. LOG_FILES .. " and not (fd.name contains .gz or fd.name icontains .tgz)) and evt.is_io_write=true and evt.arg.data icontains warn" },
		'Number of writes to application log files containing the word "warning"' },
	{ "appLogCountE", "App Log Error Messages", "echo", { targetViewTitle = "Error Application Log Messages",
		targetViewFilter = "(" .. LOG_FILES .. " and not (fd.name contains .gz or fd.name contains .tgz)) and evt.is_io_write=true and (evt.arg.data icontains error or evt.arg.data icontains critic or evt.arg.data icontains emerg or evt.arg.data icontains alert)" },
		'Number of writes to application log files containing the word "error"' },
	{ "sysLogCount", "Syslog Messages", "spy_syslog", { targetViewTitle = "Syslog Messages" },
		"Number of entries written to syslog" },
	{ "sysLogCountW", "Syslog Warning Messages", "spy_syslog", { targetViewTitle = "Syslog Messages", targetViewFilter = "syslog.severity=4" },
		"Number of entries with severity WARNING written to syslog" },
	{ "sysLogCountE", "Syslog Error Messages", "spy_syslog", { targetViewTitle = "Syslog Messages", targetViewFilter = "syslog.severity<4" },
		"Number of entries with severity ERROR or lower written to syslog" },
}

-- a counter shows when it is not excludable or not zero
local function shown(g)
	return g ~= nil and (not g.excludable or g.tot ~= 0)
end

local function metric(name, desc, category, view, drill, extra, data)
	local m = { name = name, desc = desc, category = category, targetView = view, drillDownKey = drill, data = data }
	for k, v in pairs(extra) do
		if k ~= "unless_filter" then m[k] = v end
	end
	return m
end

local function build_document(capture_ns)
	local filter = sysdig.get_filter()
	local metrics = {}
	local has = {}

	-- a set counter's total is the number of distinct keys over the capture
	for _, g in pairs(total) do
		if g.table ~= nil then
			local n = 0
			for _ in pairs(g.table) do n = n + 1 end
			g.tot = n
		end
	end
	local containers = copytable(total.containerCount.table)
	for _, g in pairs(total) do g.table = nil end

	for _, m in ipairs(METRICS) do
		local g = total[m[1]]
		local hide = m[6].unless_filter and filter:find(m[6].unless_filter, 1, true)
		if shown(g) and not hide then
			metrics[#metrics + 1] = metric(m[2], m[7], m[3], m[4], m[5], m[6], g)
		end
	end
	for _, m in ipairs(LOG_METRICS) do
		if shown(total[m[1]]) then
			metrics[#metrics + 1] = metric(m[2], m[5], "logs", m[3], "NONE", m[4], total[m[1]])
			has.logs = true
		end
	end
	if shown(total[DOCKER]) then
		metrics[#metrics + 1] = metric("Docker Events", "Total number of events generated by docker activity",
			"infrastructure", "docker_events", "NONE", {}, total[DOCKER])
		has.infrastructure = true
	end
	for id, g in pairs(total) do
		if is_docker_kind(id) and shown(g) then
			local kind = id:sub(#DOCKER + 1)
			metrics[#metrics + 1] = metric(kind .. " Events", "Total number of docker events of type " .. kind,
				"infrastructure", "docker_events", "NONE", { targetViewFilter = 'evt.arg.name="' .. kind .. '"' }, g)
			has.infrastructure = true
		end
	end
	for _, p in ipairs(PROTOCOL_PORTS) do
		local g = total[protocol_counter(p[1])]
		if shown(g) then
			local names = {}
			if type(p[2]) == "table" then
				for _, port in ipairs(p[2]) do names[#names + 1] = "fd.sport=" .. port end
			else
				local lo, hi = p[2]:match("(%d+)-(%d+)")
				for port = tonumber(lo), tonumber(hi) do names[#names + 1] = "fd.sport=" .. port end
			end
			metrics[#metrics + 1] = metric(p[1] .. " Bytes", "Total number of network bytes generated by the " .. p[1] .. " protocol",
				"napps", "connections", "NONE", { targetViewFilter = table.concat(names, " or ") }, g)
			has.napps = true
		end
	end

	local categories = { { id = "general", name = "General" }, { id = "file", name = "File" }, { id = "network", name = "Network" } }
	local optional = { { "napps", "Network Apps", has.napps }, { "security", "Security", true },
		{ "performance", "Performance", true }, { "logs", "Logs", has.logs },
		{ "infrastructure", "Infrastructure", has.infrastructure } }
	for _, c in ipairs(optional) do
		if c[3] then categories[#categories + 1] = { id = c[1], name = c[2] } end
	end

	return {
		info = { IndexFormatVersion = INDEX_FORMAT, containers = containers, durationNs = capture_ns,
			startTs = sysdig.get_firstevent_ts(), endTs = sysdig.get_lastevent_ts(), categories = categories },
		metrics = metrics,
	}
end

-------------------------------------------------------------------------------
-- callbacks
-------------------------------------------------------------------------------
function on_set_arg(name, val)
	if name ~= "composite_args" then return false end
	local parts = split(val, ",")
	local n = tonumber(parts[1])
	if n == nil or (parts[2] ~= nil and tonumber(parts[2]) == nil) then
		error("composite_args is SAMPLES[,DURATION_NS] (set by the chisel itself), not '" .. val .. "'", 0)
	end
	if n ~= 0 and n < SAMPLES then timeline_samples = n end
	if parts[2] ~= nil then duration = parts[2] end
	return true
end

function on_init()
	if duration == nil then return true end	-- first pass: only the duration
	chisel.set_precise_interval_ns(duration / (SAMPLES - 1))
	reset_slice()
	for id in pairs(spec) do total[id] = new_total(id) end
	f.etype = chisel.request_field("evt.type")
	f.dir = chisel.request_field("evt.dir")
	f.rawres = chisel.request_field("evt.rawres")
	f.fdcontname = chisel.request_field("fd.containername")
	f.fdname = chisel.request_field("fd.name")
	f.fdtype = chisel.request_field("fd.type")
	f.iswrite = chisel.request_field("evt.is_io_write")
	f.isread = chisel.request_field("evt.is_io_read")
	f.buffer = chisel.request_field("evt.buffer")
	f.buflen = chisel.request_field("evt.buflen")
	f.sport = chisel.request_field("fd.sport")
	f.typechar = chisel.request_field("fd.typechar")
	f.exe = chisel.request_field("evt.arg.exe")
	f.sig = chisel.request_field("evt.arg.sig")
	f.latency = chisel.request_field("evt.latency")
	f.syslogsev = chisel.request_field("syslog.severity")
	f.infrasource = chisel.request_field("evt.arg.source")
	f.infraname = chisel.request_field("evt.arg.name")
	f.pname = chisel.request_field("proc.pname")
	print('{"slices": [')
	return true
end

function on_capture_start()
	if duration ~= nil then listening_ports_at_start() end
	return true
end

function on_event()
	if duration == nil then return true end
	count("syscallCount")
	local dir = evt.field(f.dir)
	if dir == "<" then
		local etype, res = evt.field(f.etype), evt.field(f.rawres)
		if res ~= nil and res >= 0 then
			exit_ok(etype, res)
		else
			exit_failed(etype, res)
		end
	elseif dir ~= nil then
		enter_event(evt.field(f.etype))
	end
	return true
end

function on_interval(ts_s, ts_ns, delta)
	sample_processes()
	sample_containers()
	close_slice(ts_s, ts_ns)
	reset_slice()
	if slices_done % PROGRESS_EVERY == 0 then
		local p = sysdig.get_read_progress()
		if p == 100 then p = 99.99 end	-- 100 is the final line's
		print('{"progress": ' .. p .. ' },')
		io.flush()
	end
	slices_done = slices_done + 1
	return true
end

-- fewer samples than 400: merge consecutive slices (their sum, or their
-- average for the "avg" counters)
local function resample(doc)
	if timeline_samples == 0 or timeline_samples == SAMPLES then return end
	for _, m in ipairs(doc.metrics) do
		local d = m.data
		local src, out = d.timeLine, {}
		local per = math.ceil(#src / timeline_samples)
		local k, acc, t0, max = 0, 0, src[1] and src[1].t, 0
		for j = 1, #src do
			k = k + 1
			acc = acc + src[j].v
			if k >= per then
				if d.aggregation == "avg" then acc = acc / k end
				out[#out + 1] = { t = t0, v = acc }
				if acc > max then max = acc end
				k, acc = 0, 0
				if src[j + 1] then t0 = src[j + 1].t end
			end
		end
		d.timeLine, d.max = out, max
	end
end

function on_capture_end(ts_s, ts_ns, delta)
	if duration == nil then
		sysdig.run_app('-r "' .. sysdig.get_evtsource_name() .. '" -c wsysdig_summary ' ..
			timeline_samples .. ',' .. delta .. ' ' .. sysdig.get_filter())
		return true
	end
	close_slice(ts_s, ts_ns)
	local doc = build_document(delta)
	resample(doc)
	print('{"progress": 100, "data": ' .. json.encode(doc, { indent = true }) .. '}')
	print(']}')
	return true
end
