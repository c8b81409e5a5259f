--[[
heatmap.lua - terminal heat-map rows shared by the spectrogram and
subsecoffset chisels (loaded with `require "heatmap"`): one row of
coloured cells per interval, the colour of a cell growing with the number
of events counted in it (per second), and the callbacks around it
(install).  Not a chisel itself (it defines no description).
--]]

require "common"
local terminal = require "ansiterminal"

local M = {}

local PALETTE = { 22, 28, 64, 34, 2, 76, 46, 118, 154, 191, 227, 226, 11, 220, 209, 208, 202, 197, 9, 1 }
local SHADES = { " ", "░", "▒", "░" }

-- foreground, background and character for a cell with n events, where
-- per_sec converts the count into a rate
function M.cell(n, per_sec)
	local col = math.log10(n * per_sec + 1) / math.log10(1.6)
	col = math.max(1, math.min(col, #PALETTE))
	local lo, hi = math.floor(col), math.ceil(col)
	local frac = col - lo
	local ch = SHADES[math.floor(1 + frac * #SHADES)]
	if frac > .75 then
		return PALETTE[hi], PALETTE[lo], ch
	end
	return PALETTE[lo], PALETTE[hi], ch
end

-- draw cells 1..width of counts (moving up one line first); empty_cell()
-- sets the colours of a cell without events
function M.draw_row(counts, width, per_sec, empty_cell)
	terminal.moveup(1)
	for x = 1, width do
		local n = counts[x]
		local ch = " "
		if n == nil or n == 0 then
			empty_cell()
		else
			local fg, bg
			fg, bg, ch = M.cell(n, per_sec)
			terminal.setfgcol(fg)
			terminal.setbgcol(bg)
		end
		io.write(ch)
	end
	io.write(terminal.reset .. "\n")
end

-- the axis line under a row: label(x) returns the text to write at column
-- x (or nil for a blank), for every x where the tick number ticks(x)
-- changes
function M.draw_axis(width, ticks, label)
	local x = 0
	while x < width do
		local text = nil
		if ticks(x) ~= ticks(x - 1) then
			text = label(x)
		end
		if text then
			io.write(text)
			x = x + #text
		else
			io.write(" ")
			x = x + 1
		end
	end
	io.write("\n")
end

-- the common on_init check: these chisels need an ANSI terminal
function M.need_tty()
	if not sysdig.is_tty() then
		print("This chisel only works on ANSI terminals. Aborting.")
		return false
	end
	return true
end

--[[ Defines the callbacks of a heat-map chisel with the optional argument
"refresh_time" (milliseconds).  h holds width (columns) and period_ns.
opts.period_ns  default refresh period
opts.setup(h)   on_init work (filter, fields) once h.width is known
opts.banner     printed after hiding the cursor (optional)
opts.cell(h)    the cell of the current event, or nil to skip it
opts.empty_cell sets the colours of a cell without events
opts.tick(h, x), opts.label(h, x)  the axis (see draw_axis)
opts.final_row  draw the pending row at the end of the capture ]]
function M.install(opts)
	local h = { width = 0, period_ns = opts.period_ns }
	local per_sec = 1000000000 / h.period_ns
	local tty = false
	local counts = {}

	terminal.enable_color(true)

	function on_set_arg(name, val)
		if name ~= "refresh_time" then
			return false
		end
		h.period_ns = parse_numeric_input(val, name) * 1000000
		per_sec = 1000000000 / h.period_ns
		return true
	end

	function on_init()
		tty = sysdig.is_tty()
		if not M.need_tty() then
			return false
		end
		h.width = sysdig.get_terminal_info().width
		opts.setup(h)
		terminal.hidecursor()
		if opts.banner then
			print(opts.banner)
		end
		return true
	end

	function on_capture_start()
		chisel.set_interval_ns(h.period_ns)
		return true
	end

	function on_event()
		local cell = opts.cell(h)
		if cell ~= nil then
			counts[cell] = (counts[cell] or 0) + 1
		end
		return true
	end

	function on_interval(ts_s, ts_ns, delta)
		M.draw_row(counts, h.width, per_sec, opts.empty_cell)
		M.draw_axis(h.width, function(x) return opts.tick(h, x) end,
			function(x) return opts.label(h, x) end)
		counts = {}
		return true
	end

	function on_capture_end(ts_s, ts_ns, delta)
		if tty then
			if opts.final_row then
				on_interval(ts_s, ts_ns, 0)
			end
			print(terminal.reset)
			terminal.showcursor()
		end
		return true
	end
end

return M
