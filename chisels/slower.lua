--[[
slower.lua - shared body of the fileslower, netlower and scallslower
chisels (loaded with `require "slower"`): a threshold in milliseconds, an
optional "disable_color" argument, a header printed from on_init and one
coloured line per exit event slower than the threshold (blue for
processes inside a container, green for host processes).  Not a chisel
itself (it defines no description).
--]]

require "common"
local terminal = require "ansiterminal"

local M = {}

local DASHES = string.rep("-", 41)

-- column layouts: with fd.name (file/net I/O) and the plain syscall one
local IO_COLS = { "%-23.23s ", "%-12.12s ", "%-8s ", "%-12s ", "%s" }
local IO_COLS_PC = { "%-23.23s ", "%-20.20s ", "%-20.20s ", "%-12.12s ", "%-8s ", "%-12s ", "%s" }
local IO_ROW = "%-23.23s %-12.12s %-8s %12d %s"
local IO_ROW_PC = "%-23.23s %-20.20s %-20.20s %-12.12s %-8s %12d %s"

local function print_header(fmt, names, dashes)
	print(string.format(fmt, unpack(names)))
	print(string.format(fmt, unpack(dashes)))
end

local function io_header(with_container)
	if with_container then
		local fmt = table.concat(IO_COLS_PC)
		print_header(fmt, { "evt.datetime", "container.id", "container.name", "proc.name",
			"evt.type", "LATENCY(ms)", "fd.name" },
			{ DASHES:sub(1, 23), DASHES:sub(1, 30), DASHES:sub(1, 30), DASHES:sub(1, 12),
			DASHES:sub(1, 8), DASHES:sub(1, 12), DASHES })
	else
		print_header(table.concat(IO_COLS), { "evt.datetime", "proc.name", "evt.type",
			"LATENCY(ms)", "fd.name" },
			{ DASHES:sub(1, 23), DASHES:sub(1, 12), DASHES:sub(1, 8), DASHES:sub(1, 12), DASHES })
	end
end

local function scall_header(with_container)
	local d20 = DASHES:sub(1, 20)
	if with_container then
		print(string.format("%-23.23s %-20.20s  %-20.20s %-23.23s %-20s %s", "evt.datetime",
			"container.id", "container.name", "proc.name", "LATENCY(ms)", "evt.type"))
		print(string.format("%-23.23s %-20.20s %-20.20s %-23.23s %-20s %s", DASHES:sub(1, 23),
			d20, d20, DASHES:sub(1, 23), d20, d20))
	else
		print(string.format("%-23.23s %-23.23s %-20s %s", "evt.datetime", "proc.name",
			"LATENCY(ms)", "evt.type"))
		print(string.format("%-23.23s %-23.23s %-20s %s", DASHES:sub(1, 23), DASHES:sub(1, 23),
			d20, d20))
	end
end

--[[ install the chisel callbacks as globals.
opts.filter   chisel filter ("" for none)
opts.io       true: fd.name column and exit events only (fileslower/netlower)
opts.skip_dev true: ignore files under /dev/ ]]
function M.install(opts)
	local f = {}
	local min_ms = 0
	local with_container = false

	terminal.enable_color(true)

	function on_set_arg(name, val)
		if name == "disable_color" and val == "disable_color" then
			terminal.enable_color(false)
		elseif name == "min_ms" then
			min_ms = parse_numeric_input(val, name)
		end
		return true
	end

	function on_init()
		for _, name in ipairs({ "evt.type", "evt.dir", "evt.datetime", "fd.name",
			"proc.name", "evt.latency", "container.name", "container.id" }) do
			f[name] = chisel.request_field(name)
		end
		with_container = sysdig.is_print_container_data()
		if opts.filter ~= "" then
			chisel.set_filter(opts.filter)
		end
		if opts.io then
			io_header(with_container)
		else
			scall_header(with_container)
		end
		return true
	end

	local function colour()
		if evt.field(f["container.name"]) ~= "host" then
			return terminal.blue
		end
		return terminal.green
	end

	local function io_event()
		local ms = evt.field(f["evt.latency"]) / 1000000
		local fdname = evt.field(f["fd.name"])
		if evt.field(f["evt.dir"]) ~= "<" or not (ms > min_ms) then
			return true
		end
		if opts.skip_dev and string.sub(fdname, 0, 5) == "/dev/" then
			return true
		end
		local c = colour()
		if with_container then
			print(c .. string.format(IO_ROW_PC, evt.field(f["evt.datetime"]),
				evt.field(f["container.id"]), evt.field(f["container.name"]),
				evt.field(f["proc.name"]), evt.field(f["evt.type"]), ms, fdname))
		else
			print(c .. string.format(IO_ROW, evt.field(f["evt.datetime"]),
				evt.field(f["proc.name"]), evt.field(f["evt.type"]), ms, fdname))
		end
		return true
	end

	local function scall_event()
		local lat = evt.field(f["evt.latency"])
		if lat == nil then
			return nil
		end
		local ms = lat / 1000000
		if not (ms > min_ms) then
			return nil
		end
		local c = colour()
		if with_container then
			print(c .. string.format("%-23.23s %-20.20s %-20.20s %-23.23s %-20s %s",
				evt.field(f["evt.datetime"]), evt.field(f["container.id"]),
				evt.field(f["container.name"]), evt.field(f["proc.name"]), ms,
				evt.field(f["evt.type"])))
		else
			print(c .. string.format("%-23.23s %-23.23s %-20s %s", evt.field(f["evt.datetime"]),
				evt.field(f["proc.name"]), ms, evt.field(f["evt.type"])))
		end
		return nil
	end

	on_event = opts.io and io_event or scall_event
end

return M
