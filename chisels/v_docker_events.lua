-- v_docker_events.lua - csysdig view "Docker Events" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v docker_events` prints the same rows.
view_info = {
	id = "docker_events",
	name = "Docker Events",
	description = "Events that the docker daemon reported (containers created, started, killed...).",
	tags = {"Default"},
	view_type = "list",
	applies_to = {},
	filter = "evt.type=infra",
	use_defaults = true,
	columns = {
		{ name = "TIME", field = "evt.time", colsize = 18, description = "Time of the event." },
		{ name = "EVENT TYPE", field = "evt.arg.name", colsize = 20, description = "Name in the event." },
		{ name = "CONTAINER ID", field = "evt.infra.docker.container.id", colsize = 20, description = "Id of that container." },
		{ name = "CONTAINER IMAGE", field = "evt.infra.docker.container.image", colsize = 20, description = "Image of that container." },
		{ name = "CONTAINER NAME", field = "evt.infra.docker.container.name", colsize = 0, description = "Container the docker event is about." },
	},
}
