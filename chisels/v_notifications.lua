-- v_notifications.lua - csysdig view "Notifications" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v notifications` prints the same rows.
view_info = {
	id = "notifications",
	name = "Notifications",
	description = "Notification events written by applications through sysdig's tracer interface.",
	view_type = "list",
	applies_to = {},
	filter = "evt.type=notification",
	use_defaults = true,
	columns = {
		{ name = "TIME", field = "evt.time", colsize = 12, description = "Time of the event." },
		{ name = "ID", field = "evt.arg.id", colsize = 24, description = "Id in the event." },
		{ name = "Container", field = "container.name", colsize = 20, tags = {"containers"}, description = "Container name (host for processes outside containers)." },
		{ name = "DESCRIPTION", field = "evt.arg.desc", colsize = 0, description = "Description in the event." },
	},
}
