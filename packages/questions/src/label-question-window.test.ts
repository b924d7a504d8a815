import { describe, expect, it } from 'vitest';
import { labelQuestionWindow } from './label-question-window.ts';

describe('labelQuestionWindow', () => {
  const c = 100;
  it('T1 when the answer was public before the cutoff, whenever the question was asked', () => {
    expect(labelQuestionWindow(10, 99, c)).toBe('T1');
  });
  it('T2 when asked after the cutoff and answered by the run date', () => {
    expect(labelQuestionWindow(101, 150, c)).toBe('T2');
  });
  it('straddles_cutoff when asked at or before the cutoff and answered at or after it', () => {
    expect(labelQuestionWindow(100, 100, c)).toBe('straddles_cutoff');
    expect(labelQuestionWindow(50, 150, c)).toBe('straddles_cutoff');
  });
  it('T3 when the answer was not public at the run date', () => {
    expect(labelQuestionWindow(150, null, c)).toBe('T3');
  });
});
