--[[
stdout.lua - print what processes write to their standard output (fd 1).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel); the body is in fd_echo.lua.
--]]

description = "Print the standard output of any process on screen. Combine this script with a filter to limit the output to a specific process or pid."
short_description = "Print stdout of processes"
category = "I/O"

args = {}

require("fd_echo").install(1)
