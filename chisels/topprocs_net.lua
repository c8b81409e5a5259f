--[[
topprocs_net.lua - a top-N table, implemented by table_generator
(through top_table.lua).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Sort the list of the processes that use the most network bandwidth. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown."
short_description = "Top processes by network I/O"
category = "Net"

args = {}

local top_table = require "top_table"
top_table.install(top_table.PROCESS,
	{ "evt.rawarg.res", "Bytes", "(fd.type=ipv4 or fd.type=ipv6) and evt.is_io=true", "100", "bytes" })
