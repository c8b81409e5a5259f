--[[
spy_ip.lua - echo the network payloads exchanged with one IP address.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel, which labels both directions "Read"); the body is
in spy_net.lua.
--]]

description = "Shows the network payloads exchanged with an IP end-point. You can combine this chisel with the -x, -X or -A sysdig command line switches to customize the screen output"
short_description = "Show the data exchanged with the given IP address"
category = "Net"

args = {
	{ name = "host_ip", description = "The remote host IP address", argtype = "ipv4" },
	{ name = "disable_color", description = "Set to 'disable_colors' if you want to disable color output", argtype = "string", optional = true },
}

require("spy_net").install({ arg = "host_ip", term = "fd.ip", write_word = "Read" })
