--[[
http.lua - HTTP request/response matching shared by the httplog and httptop
chisels (loaded with `require "http"`).  Like sysdig's module of the same
name it defines globals: http_init() (call from on_init: chisel filter,
field handles, snaplen) and run_http_parser(evt, on_transaction) (call from
on_event).  A request line "METHOD url" seen on a socket (pid, fd) opens a
transaction; the next "HTTP/x code" buffer on the same socket closes it and
on_transaction is called with
{ request = { method, url, ts }, response = { code, length, ts },
  dir = "<" | ">" | "<NA>", container = container.name }.
Buffers are matched in their rendered form (non-printables as dots, so
"\r\n" reads "..").
--]]

local open_transactions = {}
local fields = {}

function http_init()
	chisel.set_filter("evt.is_io = true and evt.buflen > 0 and (fd.sockfamily = ip or fd.sockfamily = unix)")
	fields.buf = chisel.request_field("evt.buffer")
	fields.fd = chisel.request_field("fd.num")
	fields.pid = chisel.request_field("proc.pid")
	fields.rawtime = chisel.request_field("evt.rawtime")
	fields.iodir = chisel.request_field("evt.io_dir")
	fields.container = chisel.request_field("container.name")
	-- global, for the chisels' own output
	datetime_field = chisel.request_field("evt.datetime")
	sysdig.set_snaplen(1024)
end

local function parse_request(buf)
	local method, url = string.match(buf, "^(%u+) (%g+)")
	if not (method and url) then
		return nil
	end
	local host = string.match(buf, "Host: (%g+)%.%.")
	if host then
		url = host .. url
	end
	return { method = method, url = url }
end

local function parse_response(buf)
	local code = string.match(buf, "HTTP/[%g]+ (%d+)")
	if not code then
		return nil
	end
	local length = string.match(buf, "Content%-Length: (%d+)%.%.") or 0
	return { code = tonumber(code), length = tonumber(length) }
end

local DIRS = { read = "<", write = ">" }

function run_http_parser(ev, on_transaction)
	local buf = ev.field(fields.buf)
	local key = string.format("%d\001\001%d", ev.field(fields.pid), ev.field(fields.fd))
	local ts = ev.field(fields.rawtime)
	local tr = open_transactions[key]
	if tr == nil then
		local req = parse_request(buf)
		if req then
			req.ts = ts
			open_transactions[key] = { request = req, dir = DIRS[ev.field(fields.iodir)] or "<NA>",
				container = ev.field(fields.container) }
		end
		return
	end
	local resp = parse_response(buf)
	if resp then
		resp.ts = ts
		tr.response = resp
		on_transaction(tr)
		open_transactions[key] = nil
	end
end
