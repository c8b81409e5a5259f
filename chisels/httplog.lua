--[[
httplog.lua - one line per HTTP transaction seen on sockets (time,
direction, method, url, response code, latency, size).  Part of the
sysdig-c chisel library (same name, arguments and output as sysdig
0.29.3's chisel); the parsing is in http.lua.
--]]

description = "Show a log of all HTTP requests"
short_description = "HTTP requests log"
category = "Application"

args = {}

require "http"

local with_container = false

function on_init()
	http_init()
	with_container = sysdig.is_print_container_data()
	return true
end

local function log_transaction(tr)
	local container = with_container and (" " .. tr.container .. " ") or " "
	print(string.format("%s%s%s method=%s url=%s response_code=%d latency=%dms size=%dB",
		evt.field(datetime_field), container, tr.dir, tr.request.method, tr.request.url,
		tr.response.code, (tr.response.ts - tr.request.ts) / 1000000, tr.response.length))
end

function on_event()
	run_http_parser(evt, log_transaction)
end
