-- v_port_bindings.lua - csysdig view "Port bindings" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v port_bindings` prints the same rows.
view_info = {
	id = "port_bindings",
	name = "Port bindings",
	description = "Sockets bound to a port: which process listens where.",
	tags = {"default", "wsysdig"},
	view_type = "list",
	applies_to = {},
	filter = "(evt.type=bind and evt.dir=< and (fd.type=ipv4 or fd.type=ipv6)) or (evt.type=close and evt.dir=> and fd.typechar=2 and fd.type=ipv4)",
	use_defaults = true,
	columns = {
		{ name = "TIME", field = "evt.time", colsize = 12, description = "Time of the event." },
		{ name = "OPERATION", field = "evt.type", colsize = 24, description = "System call or event name." },
		{ name = "PORT", field = "fd.sport", colsize = 24, description = "Server port." },
		{ name = "Command", field = "proc.exeline", colsize = 0, aggregation = "MAX", description = "Command line of the process." },
	},
}
