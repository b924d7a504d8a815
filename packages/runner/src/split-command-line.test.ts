import { describe, expect, it } from 'vitest';
import { splitCommandLine } from './split-command-line.ts';

describe('splitCommandLine', () => {
  it('splits words like a POSIX shell splits a simple command', () => {
    expect(splitCommandLine('python3 examples/python/ewma_model.py')).toEqual([
      'python3',
      'examples/python/ewma_model.py',
    ]);
    expect(splitCommandLine(`  python3  "my model.py"  --alpha='0.3 0.5' a\\ b "q\\"x" ''`)).toEqual([
      'python3',
      'my model.py',
      '--alpha=0.3 0.5',
      'a b',
      'q"x',
      '',
    ]);
    expect(splitCommandLine(`sh -c 'python3 m.py | tee log'`)).toEqual([
      'sh',
      '-c',
      'python3 m.py | tee log',
    ]);
  });

  it('refuses unclosed quotes, an empty command and shell operators, saying what to do', () => {
    expect(() => splitCommandLine('python3 "m.py')).toThrow(/unclosed " quote/);
    expect(() => splitCommandLine('   ')).toThrow(/is empty; give the command/);
    expect(() => splitCommandLine('python3 m.py > log')).toThrow(/'>' is a shell operator.*sh -c/);
    expect(() => splitCommandLine('a && b')).toThrow(/'&&' is a shell operator/);
    // One rule wherever the operator stands (audit 8.11): `a; b` as `a | b`, `$(…)` as `(…)`.
    expect(() => splitCommandLine('python3 ok.py; touch x')).toThrow(/';' is a shell operator/);
    expect(() => splitCommandLine('python3 ok.py|cat')).toThrow(/'\|' is a shell operator/);
    expect(() => splitCommandLine('python3 $(touch x)')).toThrow(/'\(' is a shell operator/);
    // Quoted or escaped, an operator character is literal.
    expect(splitCommandLine(`python3 'a;b.py' c\\;d "e|f"`)).toEqual(['python3', 'a;b.py', 'c;d', 'e|f']);
  });
});
