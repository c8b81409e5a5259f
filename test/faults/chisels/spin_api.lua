-- spin_api.lua: on_event never returns, in a loop calling the chisel API
-- (interpreted: the interrupt hook stops it)
description = "test chisel: loops forever in on_event (calling the API)"
short_description = "test: interpreted endless loop"
category = "test"
args = {}
function on_init() return true end
function on_event() while true do local n = evt.get_num() end end
function on_capture_end() print("capture end ran") end
