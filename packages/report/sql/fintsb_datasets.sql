-- The datasets of a FinTSB export: pattern, member series and the train / valid / test windows.
-- grain: dataset
SELECT d.dataset, d.pattern, d.frequency, d.k::INTEGER AS k, d.length::INTEGER AS length,
       (SELECT count(*) FROM in_fintsb_members AS m WHERE m.dataset = d.dataset)::INTEGER AS members,
       epoch_ms(d.train_start)::DOUBLE AS train_start, epoch_ms(d.train_end)::DOUBLE AS train_end,
       epoch_ms(d.valid_start)::DOUBLE AS valid_start, epoch_ms(d.valid_end)::DOUBLE AS valid_end,
       epoch_ms(d.test_start)::DOUBLE AS test_start, epoch_ms(d.test_end)::DOUBLE AS test_end
FROM in_fintsb_datasets AS d
ORDER BY d.pattern, d.dataset
