#!/usr/bin/env Rscript
# Reference values for @asof/scoring, produced once by independent implementations in R:
#  - reference/dm-reference.json: R forecast::dm.test(e1, e2, h, power, alternative), which applies the
#    Harvey–Leybourne–Newbold correction and compares with Student t on n − 1 df;
#  - reference/crps-reference.json: the fair CRPS by its O(m²) double-sum definition and the closed-form
#    Gaussian CRPS from R's pnorm/dnorm.
# Run from packages/scoring:  npm run reference  (= Rscript reference/make-reference.R, then biome format)
# (Debian: apt-get install r-cran-forecast r-cran-jsonlite). Inputs are generated here with a fixed seed and
# written into the JSON, so the TypeScript tests never need R.
suppressPackageStartupMessages({
  library(forecast)
  library(jsonlite)
})
set.seed(20240601)

ma_errors <- function(n, h, sd) {
  # MA(h-1) errors, as h-step forecast errors on overlapping origins are
  z <- rnorm(n + h - 1, sd = sd)
  as.numeric(stats::filter(z, rep(1, h), sides = 1)[h:(n + h - 1)]) / sqrt(h)
}

cases <- list()
add_case <- function(name, e1, e2, h, power) {
  one <- function(alt) {
    r <- withCallingHandlers(
      dm.test(e1, e2, alternative = alt, h = h, power = power),
      warning = function(w) invokeRestart("muffleWarning")
    )
    list(statistic = unname(r$statistic), p = unname(r$p.value), horizon = unname(r$parameter[["Forecast horizon"]]))
  }
  less <- one("less")
  greater <- one("greater")
  two <- one("two.sided")
  cases[[length(cases) + 1]] <<- list(
    name = name, h = h, power = power, e1 = e1, e2 = e2,
    statistic = less$statistic, horizon_used = less$horizon,
    p_less = less$p, p_greater = greater$p, p_two_sided = two$p
  )
}

# 1. h = 1, squared error, model slightly better than the baseline
add_case("n30_h1_sq", rnorm(30, sd = 1), rnorm(30, sd = 1.3), 1, 2)
# 2. h = 3 overlapping-origin errors, squared error
add_case("n50_h3_sq", ma_errors(50, 3, 1), ma_errors(50, 3, 1.1), 3, 2)
# 3. small sample, h = 2, model worse
add_case("n12_h2_sq", rnorm(12, sd = 1.5), rnorm(12, sd = 1), 2, 2)
# 4. CRPS-like non-negative losses with power = 1: d = |e1| − |e2| is the loss differential itself
add_case("n40_h1_crps", abs(rnorm(40, mean = 0.5, sd = 0.2)), abs(rnorm(40, mean = 0.6, sd = 0.25)), 1, 1)
# 5. alternating differential: the h = 4 long-run variance is negative, dm.test falls back to h = 1
alt <- rep(c(1.2, 0.2), 10)
add_case("n20_h4_fallback", alt + rnorm(20, sd = 0.01), rep(0.7, 20), 4, 1)
# 6. large pooled sample, h = 5
add_case("n2000_h5_sq", ma_errors(2000, 5, 1), ma_errors(2000, 5, 1.02), 5, 2)
# 7. strongly significant improvement (tiny p in the lower tail)
add_case("n200_h1_sq_strong", rnorm(200, sd = 0.7), rnorm(200, sd = 1), 1, 2)

out <- list(
  generator = "packages/scoring/reference/make-reference.R",
  r_version = R.version.string,
  forecast_version = as.character(packageVersion("forecast")),
  note = paste(
    "p_less = P(T <= DM*), alternative 'less' (method 1 = model more accurate);",
    "p_greater = alternative 'greater'. e1 = model errors, e2 = baseline errors;",
    "loss = |e|^power."
  ),
  cases = cases
)
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE), "reference/dm-reference.json")

# CRPS: fair estimator straight from its definition (no sorting trick), and the Gaussian closed form.
crps_fair <- function(x, y) {
  m <- length(x)
  mean(abs(x - y)) - sum(abs(outer(x, x, "-"))) / (2 * m * (m - 1))
}
crps_gauss <- function(mu, sigma, y) {
  z <- (y - mu) / sigma
  sigma * (z * (2 * pnorm(z) - 1) + 2 * dnorm(z) - 1 / sqrt(pi))
}
sample_cases <- list()
for (m in c(2, 5, 17, 100)) {
  x <- rnorm(m, mean = 0.01, sd = 0.05)
  y <- rnorm(1, mean = 0, sd = 0.06)
  sample_cases[[length(sample_cases) + 1]] <- list(samples = x, outcome = y, crps_fair = crps_fair(x, y))
}
# ties in the ensemble
x <- c(0, 0, 1, 1, 1, 3)
sample_cases[[length(sample_cases) + 1]] <- list(samples = x, outcome = 0.5, crps_fair = crps_fair(x, 0.5))
gauss_cases <- lapply(
  list(c(0, 1, 0), c(0, 1, 0.3), c(0.01, 0.05, -0.08), c(5, 2, 9), c(0, 1, -6), c(0, 0.02, 0.15)),
  function(v) list(mu = v[1], sigma = v[2], outcome = v[3], crps = crps_gauss(v[1], v[2], v[3]))
)
crps_out <- list(
  generator = "packages/scoring/reference/make-reference.R",
  r_version = R.version.string,
  samples = sample_cases,
  gaussian = gauss_cases
)
writeLines(toJSON(crps_out, auto_unbox = TRUE, digits = NA, pretty = TRUE), "reference/crps-reference.json")
