--[[
spy_users.lua - show the commands users run interactively and the directories they visit.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Lists every command that users launch interactively (e.g. from bash) and every directory users visit. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown. (Blue represents a process running within a container, and Green represents a host process)"
short_description = "Display interactive user activity"
category = "Security"

args = {
	{ name = "max_depth", description = "the maximum depth to show in the hierarchy of processes", argtype = "int", optional = true },
	{ name = "disable_color", description = "Set to 'disable_colors' if you want to disable color output", argtype = "string", optional = true },
}

require "common"
local terminal = require "ansiterminal"
terminal.enable_color(true)

local MAX_ANCESTORS = 16
local max_depth = -1
local f = {}
local anames, apids = {}, {}
local with_container = false
-- pid -> { depth, pid of the shell the activity is attributed to }
local tree = {}

function on_set_arg(name, val)
	if name == "max_depth" then
		max_depth = parse_numeric_input(val, name)
	elseif name == "disable_color" and val == "disable_color" then
		terminal.enable_color(false)
	end
	return true
end

function on_init()
	f.type = chisel.request_field("evt.type")
	f.exe = chisel.request_field("proc.exe")
	f.args = chisel.request_field("proc.args")
	f.dir = chisel.request_field("evt.arg.path")
	f.user = chisel.request_field("user.name")
	f.time = chisel.request_field("evt.time.s")
	f.pid = chisel.request_field("proc.pid")
	f.ppid = chisel.request_field("proc.ppid")
	f.cname = chisel.request_field("container.name")
	f.cid = chisel.request_field("container.id")
	with_container = sysdig.is_print_container_data()
	chisel.set_filter("((evt.type=execve and evt.dir=<) or (evt.type=chdir and evt.dir=< and " ..
		"proc.name contains sh and not proc.name contains sshd)) and evt.failed=false")
	for j = 0, MAX_ANCESTORS do
		anames[j] = chisel.request_field("proc.aname[" .. j .. "]")
		apids[j] = chisel.request_field("proc.apid[" .. j .. "]")
	end
	return true
end

-- find the nearest ancestor shell of the process whose parent is ppid
local function attach(ppid)
	local entry = { -1 }
	for j = 1, MAX_ANCESTORS do
		local name = evt.field(anames[j])
		if name == nil then
			if evt.field(apids[j]) == nil then
				break
			end
		elseif #name >= 2 and name:sub(-2) == "sh" then
			local apid = evt.field(apids[j])
			if tree[apid] then
				entry = { j - 1, apid }
			else
				entry = { 0, apid }
			end
		end
	end
	tree[ppid] = entry
end

function on_event()
	local colour = with_container and terminal.green or ""
	local user = evt.field(f.user) or "<NA>"
	local when = evt.field(f.time)
	local pid = evt.field(f.pid)
	local ppid = evt.field(f.ppid)
	local cname = evt.field(f.cname)
	local is_cd = evt.field(f.type) == "chdir"
	local corr = 1
	if is_cd then
		-- a cd is attributed to the shell itself; shift the ancestor lists
		-- by one level as the reference does
		ppid = pid
		table.insert(anames, 0, 0)
		table.insert(apids, 0, 0)
		corr = 0
	end
	if not tree[ppid] then
		attach(ppid)
	end
	if tree[ppid][1] == -1 then
		return true
	end
	if not tree[pid] then
		tree[pid] = { 1 + tree[ppid][1], tree[ppid][2] }
	end
	local depth = tree[pid][1] - corr
	if max_depth ~= -1 and depth > max_depth then
		return true
	end
	if with_container and cname ~= "host" then
		colour = terminal.blue
	end
	local who = user
	if with_container then
		who = user .. "@" .. cname
	end
	local what
	if is_cd then
		what = "cd " .. evt.field(f.dir)
	else
		what = evt.field(f.exe) .. " " .. evt.field(f.args)
	end
	local indent_unit = (is_cd or with_container) and 4 or 3
	print(colour .. extend_string("", indent_unit * depth) .. tree[pid][2] .. " " ..
		when .. " " .. who .. ") " .. what)
	return true
end

function on_capture_end()
	print(terminal.reset)
end
