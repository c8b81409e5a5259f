--[[
iobytes_net.lua - total network I/O bytes per second.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel); the body is in io_totals.lua.
--]]

description = "Counts the total bytes read from and written to the network, and prints the result every second"
short_description = "Show total network I/O bytes"
category = "Net"

args = {}

require("io_totals").install("evt.is_io=true and (fd.type=ipv4 or fd.type=ipv6)")
