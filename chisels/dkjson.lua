--[[
dkjson.lua - a small JSON encoder/decoder for chisels, API-compatible with
the subset of dkjson that chisels use: json.encode(value [, {indent=true}])
and json.decode(text) -> value (nil, position, message on error).
Tables whose keys are 1..n are arrays; other tables are objects with keys
sorted so the output is stable.
--]]

local M = { version = "sysdig-c json 1.0" }

local ESCAPES = {
	['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f',
	['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t',
}

local function quote(s)
	return '"' .. s:gsub('[%c"\\]', function(c)
		return ESCAPES[c] or string.format("\\u%04x", c:byte())
	end) .. '"'
end

local function is_array(t)
	local n = 0
	for _ in pairs(t) do
		n = n + 1
	end
	for i = 1, n do
		if t[i] == nil then
			return false
		end
	end
	return true, n
end

local encode_value

-- the layout of dkjson's indent mode: each member of an object on a line
-- of its own ("key":value, two spaces per level), array elements inline
-- after "[" and "," (objects in an array one level deeper)
local function encode_table(t, indent, level, out)
	local arr, n = is_array(t)
	local parts = {}
	if arr then
		if n == 0 then
			out[#out + 1] = "[]"
			return
		end
		for i = 1, n do
			local sub = {}
			encode_value(t[i], indent, level + 1, sub)
			parts[#parts + 1] = table.concat(sub)
		end
		out[#out + 1] = "[" .. table.concat(parts, ",") .. "]"
		return
	end
	local pad = indent and ("\n" .. string.rep("  ", level + 1)) or ""
	local close = indent and ("\n" .. string.rep("  ", level)) or ""
	local keys = {}
	for k in pairs(t) do
		keys[#keys + 1] = k
	end
	table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
	for _, k in ipairs(keys) do
		local sub = {}
		encode_value(t[k], indent, level + 1, sub)
		parts[#parts + 1] = pad .. quote(tostring(k)) .. ":" .. table.concat(sub)
	end
	out[#out + 1] = "{" .. table.concat(parts, ",") .. close .. "}"
end

encode_value = function(v, indent, level, out)
	local t = type(v)
	if t == "table" then
		encode_table(v, indent, level, out)
	elseif t == "string" then
		out[#out + 1] = quote(v)
	elseif t == "number" then
		if v ~= v or v == math.huge or v == -math.huge then
			out[#out + 1] = "null"
		else
			out[#out + 1] = string.format("%.14g", v)	-- tostring's format
		end
	elseif t == "boolean" then
		out[#out + 1] = tostring(v)
	else
		out[#out + 1] = "null"
	end
end

function M.encode(v, opts)
	local out = {}
	encode_value(v, opts and opts.indent, 0, out)
	return table.concat(out)
end

-- decoder ---------------------------------------------------------------

local decode_at

local function skip(s, i)
	return s:find("[^ \t\r\n]", i) or #s + 1
end

local function decode_string(s, i)
	local out, j = {}, i + 1
	while j <= #s do
		local c = s:sub(j, j)
		if c == '"' then
			return table.concat(out), j + 1
		elseif c == "\\" then
			local e = s:sub(j + 1, j + 1)
			local map = { b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }
			if e == "u" then
				local code = tonumber(s:sub(j + 2, j + 5), 16) or 63
				out[#out + 1] = code < 256 and string.char(code) or "?"
				j = j + 6
			else
				out[#out + 1] = map[e] or e
				j = j + 2
			end
		else
			out[#out + 1] = c
			j = j + 1
		end
	end
	error({ i, "unterminated string" })
end

decode_at = function(s, i)
	i = skip(s, i)
	local c = s:sub(i, i)
	if c == "{" then
		local t = {}
		i = skip(s, i + 1)
		if s:sub(i, i) == "}" then
			return t, i + 1
		end
		while true do
			local k
			k, i = decode_string(s, skip(s, i))
			i = skip(s, i)
			if s:sub(i, i) ~= ":" then error({ i, "':' expected" }) end
			t[k], i = decode_at(s, i + 1)
			i = skip(s, i)
			c = s:sub(i, i)
			if c == "}" then return t, i + 1 end
			if c ~= "," then error({ i, "',' or '}' expected" }) end
			i = i + 1
		end
	elseif c == "[" then
		local t = {}
		i = skip(s, i + 1)
		if s:sub(i, i) == "]" then
			return t, i + 1
		end
		while true do
			t[#t + 1], i = decode_at(s, i)
			i = skip(s, i)
			c = s:sub(i, i)
			if c == "]" then return t, i + 1 end
			if c ~= "," then error({ i, "',' or ']' expected" }) end
			i = i + 1
		end
	elseif c == '"' then
		return decode_string(s, i)
	elseif s:sub(i, i + 3) == "true" then
		return true, i + 4
	elseif s:sub(i, i + 4) == "false" then
		return false, i + 5
	elseif s:sub(i, i + 3) == "null" then
		return nil, i + 4
	end
	local num = s:match("^-?%d+%.?%d*[eE]?[-+]?%d*", i)
	if num and #num > 0 then
		return tonumber(num), i + #num
	end
	error({ i, "unexpected character" })
end

function M.decode(s)
	local ok, v, pos = pcall(decode_at, s, 1)
	if ok then
		return v, pos
	end
	if type(v) == "table" then
		return nil, v[1], v[2]
	end
	return nil, 1, tostring(v)
end

return M
