# Times forecast::auto.arima on the inputs bench/arima-vs-r.ts writes (a JSON list of {name, x}, null for a
# missing value), the same calls make-reference.R made (plain numeric vectors, default options, no trace).
# Usage: Rscript bench/arima-vs-r.R inputs.json runs. Prints one line per run: elapsed seconds of the
# auto.arima loop alone (R start-up, package loading and JSON parsing excluded).
suppressPackageStartupMessages({
  library(forecast)
  library(jsonlite)
})
args <- commandArgs(trailingOnly = TRUE)
inputs <- fromJSON(args[1], simplifyVector = FALSE)
runs <- if (length(args) > 1) as.integer(args[2]) else 3L
series <- lapply(inputs, function(i) as.numeric(vapply(i$x, function(v) if (is.null(v)) NA_real_ else v, 0)))
for (run in seq_len(runs)) {
  start <- proc.time()[["elapsed"]]
  for (x in series) fit <- auto.arima(x)
  cat(sprintf("%.6f\n", proc.time()[["elapsed"]] - start))
}
