--[[
topfiles_time.lua - a top-N table, implemented by table_generator
(through top_table.lua).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Shows the top files in terms of disk usage. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown."
short_description = "Top files by time"
category = "I/O"

args = {}

local top_table = require "top_table"
top_table.install({ "fd.name", "Filename",
	"fd.name,container.name", "Filename,container.name" },
	{ "evt.latency", "Time", "fd.type=file and evt.is_io=true", "10", "time" })
