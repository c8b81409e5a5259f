--[[
list_login_shells.lua - list the login shell ids (proc.loginshellid) seen
in execve events, optionally only those running a given command or with
given arguments.  Part of the sysdig-c chisel library (same name,
arguments and output as sysdig 0.29.3's chisel: like it, it remembers only
the last matching session and prints it once per remembered attribute).
--]]

description = "List the IDs of the login sessions. Optionally, the list can be filtered to include only the sessions that contain a specific command. The session IDs listed by this chisel can be used as filters for the spy_users chisel. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown."
short_description = "List the login shell IDs"
category = "Security"

args = {
	{ name = "command", description = "If this parameter is specified, only the login shells that contain commands including the given string in their name will be listed. * will match any command name.", argtype = "string", optional = true },
	{ name = "arguments", description = "If this parameter is specified, only the login shells that contain commands including the given string in their arguments will be listed", argtype = "string", optional = true },
}

require "common"

local f = {}
local want_comm = nil
local want_args = nil
local with_container = false
-- the last matching session: its id, container name and container id
local last = {}

function on_set_arg(name, val)
	if name == "command" and val ~= "*" then
		want_comm = val
	elseif name == "arguments" then
		want_args = val
	end
	return true
end

function on_init()
	f.sid = chisel.request_field("proc.loginshellid")
	f.exe = chisel.request_field("evt.arg.exe")
	f.args = chisel.request_field("evt.arg.args")
	f.cname = chisel.request_field("container.name")
	f.cid = chisel.request_field("container.id")
	with_container = sysdig.is_print_container_data()
	chisel.set_filter("evt.type=execve")
	return true
end

local function matches(exe, argstr)
	if want_comm and string.find(exe, want_comm) == nil then
		return false
	end
	if want_args and argstr and string.find(argstr, want_args) == nil then
		return false
	end
	return true
end

function on_event()
	local sid, exe = evt.field(f.sid), evt.field(f.exe)
	local argstr = evt.field(f.args)
	local cname, cid = evt.field(f.cname), evt.field(f.cid)
	if sid and exe and matches(exe, argstr) then
		last.fsid = sid
		last.containername = cname
		last.containerid = cid
	end
	return true
end

function on_capture_end()
	if want_comm then
		print("Shells containing " .. want_comm .. ":")
	else
		print("All shells:")
	end
	for _ in pairs(last) do
		if with_container then
			print(last.fsid .. " " .. last.containername .. " " .. last.containerid)
		else
			print(last.fsid)
		end
	end
end
