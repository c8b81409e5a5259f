--[[
topcontainers_error.lua - a top-N table, implemented by table_generator
(through top_table.lua).
Part of the sysdig-c chisel library (same name, arguments and output as
sysdig 0.29.3's chisel).
--]]

description = "Shows the top container in terms of system call errors."
short_description = "Top containers by number of errors"
category = "Errors"

args = {}

local top_table = require "top_table"
top_table.install({ "container.name", "container.name" },
	{ "evt.count", "#Errors", "evt.failed=true and container.name!=host", "100", "none" })
