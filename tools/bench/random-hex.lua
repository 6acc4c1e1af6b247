-- Shared by the bench's wrk scripts: random hex digits, and a seed of each wrk thread's own
-- (set in setup, read as `seed` in init), so two threads never send the same paths.
function hex(length)
  local digits = {}
  for i = 1, length do digits[i] = string.format("%x", math.random(0, 15)) end
  return table.concat(digits)
end

function setup(thread)
  thread:set("seed", os.time() + math.random(1, 1e6))
end
