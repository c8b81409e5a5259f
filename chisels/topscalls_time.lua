--[[
topscalls_time.lua - a top-N table, implemented by table_generator
(through top_table.lua).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Show the top 30 system calls in terms of time spent in each call. You can use filters to restrict this to a specific process, thread or file. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown."
short_description = "Top system calls by time"
category = "Performance"

args = {}

local top_table = require "top_table"
top_table.install({ "evt.type", "Syscall",
	"evt.type,container.name", "Syscall,container.name" },
	{ "evt.latency", "Time", "", "30", "time" })
