--[[
topcontainers_file.lua - a top-N table, implemented by table_generator
(through top_table.lua).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Shows the top containers in terms of total (in+out) bytes to disk."
short_description = "Top containers by R+W disk bytes"
category = "I/O"

args = {}

local top_table = require "top_table"
top_table.install({ "container.name", "container.name" },
	{ "evt.rawarg.res", "Bytes", "fd.type=file and evt.is_io=true and container.name!=host", "10", "bytes" })
