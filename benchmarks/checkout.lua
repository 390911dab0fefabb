-- wrk script: POST /api/checkout with a fresh shopper and a fresh idempotency key per request.
-- Every wrk thread starts with the same random seed, so keys are built from the thread's number
-- and a counter, and each thread takes every n-th line of the token file (one shopper each).
local threads = {}

function setup(thread)
   thread:set("id", #threads)
   table.insert(threads, thread)
end

function init(args)
   local file = os.getenv("CHECKOUT_TOKENS")
   local count = tonumber(os.getenv("CHECKOUT_THREADS"))
   shoppers = {}
   local index = 0
   for line in io.lines(file) do
      if index % count == id then
         local token, total = line:match("^(%S+) (%S+)$")
         table.insert(shoppers, { token = token, total = total })
      end
      index = index + 1
   end
   -- Another wrk beside this one (two servers, one wrk each) passes its own prefix.
   key_prefix = os.getenv("CHECKOUT_KEY_PREFIX") or "bench"
   next_shopper = 1
   created, replayed, other, exhausted = 0, 0, 0, 0
end

function request()
   local shopper = shoppers[next_shopper]
   if shopper == nil then
      exhausted = exhausted + 1
      return wrk.format("GET", "/api/products")
   end
   next_shopper = next_shopper + 1
   local body = '{"payment_method":{"type":"card","token":"tok_visa"},"expected_total":{"amount":"'
      .. shopper.total .. '","currency":"EUR"}}'
   local headers = {
      ["Authorization"] = "Bearer " .. shopper.token,
      ["Idempotency-Key"] = key_prefix .. "-" .. id .. "-" .. next_shopper,
      ["Content-Type"] = "application/json",
   }
   return wrk.format("POST", "/api/checkout", headers, body)
end

function response(status, headers, body)
   if status == 201 then
      created = created + 1
   else
      other = other + 1
   end
end

function done(summary, latency, requests)
   local totals = { created = 0, other = 0, exhausted = 0 }
   for _, thread in ipairs(threads) do
      totals.created = totals.created + thread:get("created")
      totals.other = totals.other + thread:get("other")
      totals.exhausted = totals.exhausted + thread:get("exhausted")
   end
   io.write(string.format("checkouts: %d paid (201), %d other answers, %d requests after the shoppers ran out\n",
      totals.created, totals.other, totals.exhausted))
end
