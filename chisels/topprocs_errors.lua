--[[
topprocs_errors.lua - a top-N table, implemented by table_generator
(through top_table.lua).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Shows the top processes in terms of system call errors. This chisel is compatible with containers using the sysdig -pc or -pcontainer argument, otherwise no container information will be shown."
short_description = "top processes by number of errors"
category = "Errors"

args = {}

local top_table = require "top_table"
top_table.install(top_table.PROCESS,
	{ "evt.count", "#Errors", "evt.failed=true", "100", "none" })
