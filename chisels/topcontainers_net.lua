--[[
topcontainers_net.lua - a top-N table, implemented by table_generator
(through top_table.lua).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Sorted list of containers that use the most network bandwidth."
short_description = "Top containers by network I/O"
category = "Net"

args = {}

local top_table = require "top_table"
top_table.install({ "container.name", "container.name" },
	{ "evt.rawarg.res", "Bytes", "(fd.type=ipv4 or fd.type=ipv6) and evt.is_io=true and container.name!=host", "100", "bytes" })
