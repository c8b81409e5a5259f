--[[
spy_port.lua - echo the network payloads exchanged on one IP port.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel); the body is in spy_net.lua.
--]]

description = "Shows the network payloads exchanged using a given IP port number. You can combine this chisel with the -x, -X or -A sysdig command line switches to customize the screen output"
short_description = "Show the data exchanged using the given IP port number"
category = "Net"

args = {
	{ name = "host_port", description = "The remote host IP port number", argtype = "int" },
	{ name = "disable_color", description = "Set to 'disable_colors' if you want to disable color output", argtype = "string", optional = true },
}

require("spy_net").install({ arg = "host_port", term = "fd.port", write_word = "Write" })
