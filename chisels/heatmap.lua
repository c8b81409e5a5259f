--[[
heatmap.lua - terminal heat-map rows shared by the spectrogram and
subsecoffset chisels (loaded with `require "heatmap"`): one row of
coloured cells per interval, the colour of a cell growing with the number
of events counted in it (per second).  Not a chisel itself (it defines no
description).
--]]

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

return M
