--[[
topprocs_cpu.lua - processes sorted by CPU usage (from the procinfo events).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel); the body is in top_cpu.lua.
--]]

description = "Show the top process defined by the highest CPU utilization. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown."
short_description = "Top processes by CPU usage"
category = "CPU Usage"

args = {}

require("top_cpu").install({ "proc.name", "proc.pid" }, { "Process", "PID" },
	{ "proc.name", "proc.pid", "proc.vpid", "container.name" },
	{ "Process", "Host_pid", "Container_pid", "container.name" })
