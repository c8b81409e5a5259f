--[[
topconns.lua - a top-N table, implemented by table_generator
(through top_table.lua).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Shows the top network connections in terms of total (in+out) bandwidth. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown."
short_description = "Top network connections by total bytes"
category = "Net"

args = {}

local top_table = require "top_table"
top_table.install({ "fd.l4proto,fd.name", "Proto,Conn",
	"container.name,fd.l4proto,fd.name", "container.name,Proto,Conn" },
	{ "evt.rawarg.res", "Bytes", "(fd.type=ipv4 or fd.type=ipv6) and evt.is_io=true", "30", "bytes" })
