-- v_spectro_all.lua - csysdig view "Spectrogram-All" (sysdig-c).
-- Same columns, filter and aggregations as sysdig 0.29.3's view of this id,
-- so `csysdig --raw -v spectro_all` prints the same rows.
view_info = {
	id = "spectro_all",
	name = "Spectrogram-All",
	description = "System call latency over time, as a spectrogram: each line is one refresh, each column a latency range.",
	view_type = "spectrogram",
	applies_to = {"evt.type"},
	filter = "evt.dir=<",
	use_defaults = false,
	columns = {
		{ name = "NA", field = "evt.latency.quantized", is_key = true },
		{ name = "LATENCY", field = "evt.latency.quantized", description = "Latency range." },
		{ name = "COUNT", field = "evt.count", colsize = 8, aggregation = "SUM", description = "Events (per second where the column is a rate)." },
	},
}
