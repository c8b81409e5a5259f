--[[
topports_server.lua - a top-N table, implemented by table_generator
(through top_table.lua).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Shows the top TCP/UDP server ports in terms of total (in+out) bandwidth. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown."
short_description = "Top TCP/UDP server ports by R+W bytes"
category = "Net"

args = {}

local top_table = require "top_table"
top_table.install({ "fd.sport", "Srv Port",
	"fd.sport,container.name", "Srv Port,container.name" },
	{ "evt.rawarg.res", "Bytes", "(fd.type=ipv4 or fd.type=ipv6) and evt.is_io=true", "100", "bytes" })
