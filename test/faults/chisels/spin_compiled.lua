-- spin_compiled.lua: on_event never returns, in a pure Lua loop that
-- LuaJIT compiles to machine code (no hook runs there)
description = "test chisel: loops forever in on_event (compiled loop)"
short_description = "test: compiled endless loop"
category = "test"
args = {}
function on_init() return true end
function on_event() local x = 0 while true do x = x + 1 end end
function on_capture_end() print("capture end ran") end
