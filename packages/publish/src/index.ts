// @asof/publish: a universe or split as a Hugging Face dataset folder with a Croissant card and fev tasks (issue 54).
