#!/usr/bin/env Rscript
# Reference vectors for the GARCH(1,1) baseline of @asof/baselines (src/fit-garch.ts): parameters
# and negative log-likelihood from tseries::garch, and h-step variance forecasts computed here from those
# parameters by the GARCH(1,1) recursion started where tseries' likelihood starts (h_1 = mean(x^2)):
#   h_t = a0 + a1 x_{t-1}^2 + b1 h_{t-1};  sigma2_{n+1} = a0 + a1 x_n^2 + b1 h_n;
#   sigma2_{n+k} = a0 + (a1 + b1) sigma2_{n+k-1}.
# (tseries' own predict() restarts the path from the unconditional variance; its one-step value is
# recorded too.) Every input series is simulated here with a fixed seed and written into the JSON, so the
# TypeScript tests never need R. Run from packages/baselines:  Rscript reference/garch/make-reference.R
# (Debian: apt-get install r-base-core r-cran-tseries r-cran-jsonlite).
suppressPackageStartupMessages({
  library(tseries)
  library(jsonlite)
})
set.seed(20240612)

H <- 20
simulate_garch <- function(n, omega, alpha, beta, innov = rnorm) {
  burn <- 500
  z <- innov(n + burn)
  x <- numeric(n + burn)
  h <- omega / max(1e-6, 1 - alpha - beta)
  prev <- 0
  for (t in seq_len(n + burn)) {
    h <- omega + alpha * prev^2 + beta * h
    x[t] <- sqrt(h) * z[t]
    prev <- x[t]
  }
  tail(x, n)
}
t_innov <- function(df) function(m) rt(m, df) * sqrt((df - 2) / df)

cases <- list()
add <- function(name, x) {
  x <- as.numeric(x)
  fit <- garch(x, order = c(1, 1), trace = FALSE)
  cf <- unname(coef(fit))
  n <- length(x)
  h <- numeric(n)
  h[1] <- mean(x^2)
  for (t in 2:n) h[t] <- cf[1] + cf[2] * x[t - 1]^2 + cf[3] * h[t - 1]
  f <- numeric(H)
  f[1] <- cf[1] + cf[2] * x[n]^2 + cf[3] * h[n]
  for (k in 2:H) f[k] <- cf[1] + (cf[2] + cf[3]) * f[k - 1]
  own <- predict(fit, genuine = TRUE)
  cases[[length(cases) + 1]] <<- list(
    name = name, x = x,
    omega = cf[1], alpha = cf[2], beta = cf[3],
    n_likeli = fit$n.likeli,
    variance_forecast = f,
    tseries_next_sd = unname(own[n + 1, 1])
  )
}

add("g_500_a", simulate_garch(500, 1e-5, 0.08, 0.90))
add("g_500_b", simulate_garch(500, 2e-6, 0.05, 0.93))
add("g_1000_a", simulate_garch(1000, 1e-5, 0.10, 0.85))
add("g_1000_b", simulate_garch(1000, 4e-6, 0.06, 0.92))
add("g_2000_a", simulate_garch(2000, 1e-6, 0.05, 0.94))
add("g_2000_b", simulate_garch(2000, 2e-5, 0.15, 0.75))
add("g_300_a", simulate_garch(300, 5e-5, 0.20, 0.60))
add("g_300_b", simulate_garch(300, 1e-5, 0.10, 0.80))
add("g_750_high_alpha", simulate_garch(750, 2e-5, 0.30, 0.60))
add("g_750_persistent", simulate_garch(750, 5e-7, 0.04, 0.955))
add("g_1500_unit_scale", simulate_garch(1500, 0.05, 0.1, 0.85))
add("g_1500_pct_scale", simulate_garch(1500, 0.02, 0.07, 0.9))
add("t5_1000", simulate_garch(1000, 1e-5, 0.08, 0.90, t_innov(5)))
add("t8_800", simulate_garch(800, 1e-5, 0.10, 0.85, t_innov(8)))
add("t4_1200", simulate_garch(1200, 5e-6, 0.07, 0.91, t_innov(4)))
add("g_600_low_persist", simulate_garch(600, 1e-4, 0.10, 0.40))
add("g_400_c", simulate_garch(400, 3e-5, 0.12, 0.78))
add("g_1250_d", simulate_garch(1250, 8e-6, 0.09, 0.88))
add("g_900_e", simulate_garch(900, 1.5e-5, 0.11, 0.84))
add("g_2500_f", simulate_garch(2500, 3e-6, 0.06, 0.925))
add("g_350_g", simulate_garch(350, 2e-5, 0.15, 0.70))
add("g_1800_h", simulate_garch(1800, 1e-5, 0.085, 0.895))

out <- list(
  generator = "packages/baselines/reference/garch/make-reference.R",
  r_version = R.version.string,
  tseries_version = as.character(packageVersion("tseries")),
  seed = 20240612,
  horizon = H,
  cases = cases
)
writeLines(toJSON(out, digits = NA, auto_unbox = TRUE), file.path("reference/garch", "garch-reference.json"))
cat("wrote", length(cases), "tseries::garch cases\n")
