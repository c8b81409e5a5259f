--[[
iobytes_file.lua - total file I/O bytes per second.
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel); the body is in io_totals.lua.
--]]

description = "Counts the total bytes read from and written to files."
short_description = "Sum of file I/O bytes"
category = "I/O"

args = {}

require("io_totals").install("evt.is_io=true and fd.type=file")
