--[[
iobytes.lua - total I/O bytes on any FD per second.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel); the body is in io_totals.lua.
--]]

description = "Counts the total bytes read from and written to any type of FD (disk, socket, pipe...) and prints the result every second."
short_description = "Sum of I/O bytes on any type of FD"
category = "I/O"

args = {}

require("io_totals").install("evt.is_io=true")
