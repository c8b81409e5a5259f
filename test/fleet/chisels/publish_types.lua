-- publish_types.lua - a test chisel for the metrics endpoint: counts the
-- events it sees by type and publishes the table with
-- sysdig.publish_metrics, as sysdig_chisel_event_types{evt_type="..."}.
description = "counts events by type and publishes them as metrics (fleet tests)"
short_description = "event types as metrics"
category = "Tests"
args = {}

local ftype
local counts = {}

function on_init()
	ftype = chisel.request_field("evt.type")
	return true
end

function on_event()
	local t = evt.field(ftype)
	counts[t] = (counts[t] or 0) + 1
	return true
end

function on_capture_end()
	if not sysdig.publish_metrics("event_types", counts, "evt.type", "events by type") then
		print("no metrics endpoint")
	end
end
