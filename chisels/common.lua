--[[
common.lua - helpers shared by the sysdig-c chisels (loaded with
`require "common"`).  Like sysdig's module of the same name it defines
globals rather than returning a table, so third-party chisels written for
sysdig keep working: extend_string, split, starts_with, ends_with,
format_bytes, format_time_interval, pairs_top_by_val, ts_to_str,
print_sorted_table, parse_numeric_input, copytable, concattable, typeof, st.
It also sets the global `json` (our dkjson-compatible encoder).
--]]

json = require "dkjson"

local BLANKS = string.rep(" ", 256)

-- pad s with spaces to n characters; a string of n or more characters is
-- cut to n - 1 characters plus one space (so columns never touch)
function extend_string(s, n)
	if #s < n then
		return s .. BLANKS:sub(1, n - #s)
	end
	if n <= 0 then
		return ""
	end
	return s:sub(1, n - 1) .. " "
end

-- split s on every occurrence of delim (a Lua pattern); keeps empty parts
function split(s, delim)
	local parts = {}
	for piece in (s .. delim):gmatch("(.-)" .. delim) do
		parts[#parts + 1] = piece
	end
	return parts
end

function starts_with(s, prefix)
	return prefix == "" or s:sub(1, #prefix) == prefix
end

function ends_with(s, suffix)
	return suffix == "" or s:sub(-#suffix) == suffix
end

local KB = 1024
local UNITS = {
	{ KB * KB * KB * KB * KB, "P" },
	{ KB * KB * KB * KB, "T" },
	{ KB * KB * KB, "G" },
	{ KB * KB, "M" },
	{ KB, "KB" },
}

-- bytes in binary units: 512B, 1.50KB, 3.20M, 1.00G ...
function format_bytes(v)
	for _, u in ipairs(UNITS) do
		if v > u[1] then
			return string.format("%.2f" .. u[2], v / u[1])
		end
	end
	return string.format("%dB", v)
end

local S, MS, US = 1000000000, 1000000, 1000

-- nanoseconds as 1.10s, 250ms, 2.50ms, 120us, 3.40us or 800ns
function format_time_interval(v)
	if v >= S then
		return string.format("%u.%02us", math.floor(v / S), (v % S) / 10000000)
	elseif v >= S / 100 then
		return string.format("%ums", math.floor(v / MS))
	elseif v >= MS then
		return string.format("%u.%02ums", math.floor(v / MS), (v % MS) / 10000)
	elseif v >= US * 10 then
		return string.format("%uus", math.floor(v / US))
	elseif v >= US then
		return string.format("%u.%02uus", math.floor(v / US), (v % US) / 10)
	end
	return string.format("%uns", v)
end

-- iterate over the n best entries of t (n = 0: all), best according to
-- better(t, a, b) -> true when key a goes before key b
function pairs_top_by_val(t, n, better)
	local keys = {}
	for k in pairs(t) do
		keys[#keys + 1] = k
	end
	table.sort(keys, function(a, b) return better(t, a, b) end)
	local i = 0
	return function()
		i = i + 1
		if (n == 0 or i <= n) and keys[i] ~= nil then
			return keys[i], t[keys[i]]
		end
	end
end

-- absolute timestamp in ns as a decimal string, from seconds and nanoseconds
function ts_to_str(s, ns)
	return string.format("%u%.9u", s, ns)
end

local COLW = 20

local function render_value(v, units, delta)
	if units == "bytes" then
		return format_bytes(v)
	elseif units == "time" then
		return format_time_interval(v)
	elseif units == "timepct" then
		if delta > 0 then
			return string.format("%.2f%%", v / delta * 100)
		end
		return "0.00%"
	end
	return tostring(v)
end

local function print_table_json(rows, ts_s, ts_ns, info)
	local data = {}
	for k, v in rows do
		local row = split(k, "\001\001")
		row[#row + 1] = v
		data[#data + 1] = row
	end
	local cols = {}
	for i, name in ipairs(info.key_fld) do
		cols[i] = { name = name, desc = info.key_desc[i], is_key = true }
	end
	-- sysdig's tables always put the value column third
	cols[3] = { name = info.value_fld, desc = info.value_desc, is_key = false }
	print(json.encode({ ts = sysdig.make_ts(ts_s, ts_ns), data = data, info = cols },
		{ indent = true }))
end

local function print_table_text(rows, delta, info)
	local header = extend_string(info.value_desc, COLW)
	for _, d in ipairs(info.key_desc) do
		header = header .. extend_string(d, COLW)
	end
	print(header)
	print(string.rep("-", 80))
	for k, v in rows do
		local keys = split(k, "\001\001")
		local line = extend_string(render_value(v, info.value_units, delta), COLW)
		for i, key in ipairs(keys) do
			if i < #keys then
				line = line .. extend_string(key:sub(1, COLW), COLW)
			else
				line = line .. key
			end
		end
		print(line)
	end
end

-- print a key -> number table sorted by value, highest first.
-- info: key_fld, key_desc, value_fld, value_desc, value_units
-- ("none", "bytes", "time", "timepct"), top_number, output_format.
-- Composite keys are joined with "\001\001".
function print_sorted_table(t, ts_s, ts_ns, delta, info)
	local rows = pairs_top_by_val(t, info.top_number,
		function(tt, a, b) return tt[b] < tt[a] end)
	if info.output_format == "json" then
		print_table_json(rows, ts_s, ts_ns, info)
	else
		print_table_text(rows, delta, info)
	end
end

-- tonumber() or a message and exit
function parse_numeric_input(value, name)
	local n = tonumber(value)
	if n == nil then
		print(string.format("Input %s must be a number.", name))
		os.exit()
	end
	return n
end

-- deep copy
function copytable(t)
	if type(t) ~= "table" then
		return t
	end
	local c = {}
	for k, v in next, t, nil do
		c[copytable(k)] = copytable(v)
	end
	return setmetatable(c, copytable(getmetatable(t)))
end

-- append the array part of t2 to t1 (in place) and return t1
function concattable(t1, t2)
	for i = 1, #t2 do
		t1[#t1 + 1] = t2[i]
	end
	return t1
end

-- type() that also tells integers from other numbers
function typeof(v)
	local t = type(v)
	if t == "number" and math.floor(v) == v then
		return "integer"
	end
	return t
end

-- debug: serialise a value (tables recursively, one entry per line unless
-- skipnewlines) as "name = value" text, indented by depth; returns the text
function st(val, name, skipnewlines, depth)
	depth = depth or 0
	local nl = skipnewlines and "" or "\n"
	local out = string.rep(" ", depth)
	if name then
		out = out .. name .. " = "
	end
	local t = type(val)
	if t == "table" then
		local parts = { out .. "{" .. nl }
		for k, v in pairs(val) do
			parts[#parts + 1] = st(v, k, skipnewlines, depth + 1) .. "," .. nl
		end
		parts[#parts + 1] = string.rep(" ", depth) .. "}"
		return table.concat(parts)
	elseif t == "number" then
		return out .. tostring(val)
	elseif t == "string" then
		return out .. string.format("%q", val)
	elseif t == "boolean" then
		return out .. tostring(val)
	end
	return out .. "\"[inserializeable datatype:" .. t .. "]\""
end
