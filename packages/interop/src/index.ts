// @asof/interop: exports for other ecosystems' layouts, Nixtla's long format and Qlib's binary store (issue 54).
