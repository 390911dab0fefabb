-- wrk script for the soak (scripts/soak.sh): a mix of catalog reads (60 %), basket writes (37.5 %)
-- and checkouts (2.5 %, about as many as a round has shoppers prepared for). Checkouts use prepared shoppers, each once, with a fresh idempotency key;
-- basket writes go to other shoppers (SOAK_BROWSERS), whose baskets are never paid. Every answer
-- should be a 2xx: anything else is counted as an error by its status.
local threads = {}

function setup(thread)
   thread:set("id", #threads)
   table.insert(threads, thread)
end

local function read_lines(file, count)
   local lines = {}
   local index = 0
   for line in io.lines(file) do
      if index % count == id then table.insert(lines, line) end
      index = index + 1
   end
   return lines
end

function init(args)
   local count = tonumber(os.getenv("SOAK_THREADS"))
   shoppers = {}
   for _, line in ipairs(read_lines(os.getenv("SOAK_TOKENS"), count)) do
      local token, total = line:match("^(%S+) (%S+)$")
      table.insert(shoppers, { token = token, total = total })
   end
   browsers = {}
   for _, line in ipairs(read_lines(os.getenv("SOAK_BROWSERS"), count)) do
      table.insert(browsers, line:match("^(%S+)"))
   end
   products = {}
   for product in os.getenv("SOAK_PRODUCTS"):gmatch("%d+") do table.insert(products, product) end
   n, next_shopper = 0, 1
   ok, errors, exhausted, paid = 0, 0, 0, 0
   failed = ""
end

function request()
   n = n + 1
   local slot = n % 40
   local product = products[(n % #products) + 1]
   if slot < 12 then
      return wrk.format("GET", "/api/products")
   elseif slot < 20 then
      return wrk.format("GET", "/api/products/" .. product)
   elseif slot < 24 then
      return wrk.format("GET", "/")
   elseif slot < 39 then
      local token = browsers[(n % #browsers) + 1]
      -- Three products a browser at most, so a basket stays small.
      return wrk.format("PUT", "/api/basket/items/" .. products[(n % 3) + 1], {
         ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json",
      }, '{"quantity":' .. (n % 3 + 1) .. '}')
   end
   local shopper = shoppers[next_shopper]
   if shopper == nil then
      exhausted = exhausted + 1
      return wrk.format("GET", "/api/categories")
   end
   next_shopper = next_shopper + 1
   return wrk.format("POST", "/api/checkout", {
      ["Authorization"] = "Bearer " .. shopper.token,
      ["Idempotency-Key"] = "soak-" .. os.getenv("SOAK_SEGMENT") .. "-" .. id .. "-" .. next_shopper,
      ["Content-Type"] = "application/json",
   }, '{"payment_method":{"type":"card","token":"tok_visa"},"expected_total":{"amount":"'
      .. shopper.total .. '","currency":"EUR"}}')
end

function response(status, headers, body)
   if status >= 200 and status < 300 then
      ok = ok + 1
      if status == 201 then paid = paid + 1 end
   else
      errors = errors + 1
      if #failed < 200 then failed = failed .. status .. " " end
   end
end

function done(summary, latency, requests)
   local totals = { ok = 0, errors = 0, exhausted = 0, paid = 0 }
   local failed_all = ""
   for _, thread in ipairs(threads) do
      for key, _ in pairs(totals) do totals[key] = totals[key] + thread:get(key) end
      failed_all = failed_all .. thread:get("failed")
   end
   io.write(string.format("soak: %d ok, %d paid, %d errors, %d shoppers short, p50 %.2f ms, p99 %.2f ms, socket errors %d/%d/%d/%d [%s]\n",
      totals.ok, totals.paid, totals.errors, totals.exhausted, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
      summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout, failed_all))
end
