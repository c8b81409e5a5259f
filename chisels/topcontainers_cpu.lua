--[[
topcontainers_cpu.lua - containers sorted by CPU usage (from the procinfo events).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel); the body is in top_cpu.lua.
--]]

description = "Show the top containers defined by the highest CPU utilization."
short_description = "Top containers by CPU usage"
category = "CPU Usage"

args = {}

require("top_cpu").install({ "container.name" }, { "container.name" })
