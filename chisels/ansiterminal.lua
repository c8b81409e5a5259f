--[[
ansiterminal.lua - ANSI escape helpers for chisels (`require "ansiterminal"`).
Colour names (red, green, reset ...) are fields holding the escape string,
or "" after enable_color(false).  Colours start disabled.
--]]

local M = {}

local CODES = {
	reset = 0, clear = 0, bright = 1, dim = 2, underscore = 4, blink = 5,
	reverse = 7, hidden = 8,
	black = 30, red = 31, green = 32, yellow = 33, blue = 34, magenta = 35,
	cyan = 36, white = 37,
	onblack = 40, onred = 41, ongreen = 42, onyellow = 43, onblue = 44,
	onmagenta = 45, oncyan = 46, onwhite = 47,
}

local ESC = string.char(27) .. "["

function M.enable_color(on)
	for name, code in pairs(CODES) do
		M[name] = on == true and (ESC .. code .. "m") or ""
	end
end

function M.clearscreen() io.write(ESC .. "2J") end
function M.moveto(x, y) io.write(ESC .. x .. ";" .. y .. "H") end
function M.moveup(n) io.write(ESC .. n .. "F") end
function M.clearline() io.write(ESC .. "2K") end
function M.hidecursor() io.write(ESC .. "?25l") end
function M.showcursor() io.write(ESC .. "?25h") end
function M.setfgcol(c) io.write(ESC .. "38;5;" .. c .. "m") end
function M.setbgcol(c) io.write(ESC .. "48;5;" .. c .. "m") end

M.enable_color(false)

return M
