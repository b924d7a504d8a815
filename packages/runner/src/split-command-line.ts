import { InputError } from '@asof/schema';

/** Characters a shell would read as an operator when unquoted: `a;b`, `a|b`, `a>f`, `$(…)` alike. */
const OPERATOR_CHARS = '|&;<>()';

/**
 * Splits `--model "CMD …"` into argv words the way a POSIX shell splits a simple command: whitespace
 * separates words, '…' is literal, "…" keeps spaces (\" \\ \$ \` escaped), a backslash outside quotes
 * escapes the next character. The command is then started without a shell (no pipes, redirections or
 * $VARIABLES), so the words are exactly what the model receives and what the run records. An unquoted,
 * unescaped shell operator character (`| & ; < > ( )`) is refused with a hint wherever it stands, on its
 * own or inside a word (`a;` as `a |`: one rule, audit 8.11); quoted or escaped, it is literal.
 */
export function splitCommandLine(text: string, flag = '--model'): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  let op: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) word += text[++i];
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      // The operator as written (`&&`, `>>`), for the message.
      if (op === null && OPERATOR_CHARS.includes(c)) op = /^[|&;<>()]+/.exec(text.slice(i))?.[0] ?? c;
      word += c;
      inWord = true;
    }
  }
  if (quote) {
    throw new InputError(
      'MODEL_COMMAND_QUOTE',
      `${flag} ${JSON.stringify(text)}: unclosed ${quote} quote; close it`,
      {
        context: { value: text },
      },
    );
  }
  if (inWord) words.push(word);
  if (words.length === 0) {
    throw new InputError(
      'MODEL_COMMAND_EMPTY',
      `${flag} is empty; give the command that starts the model, e.g. ${flag} "python3 examples/python/ewma_model.py"`,
    );
  }
  if (op !== null) {
    throw new InputError(
      'MODEL_COMMAND_SHELL',
      `${flag} ${JSON.stringify(text)}: '${op}' is a shell operator, but the model is started without a shell; wrap the pipeline in one: ${flag} "sh -c '…'"`,
      { context: { value: text, operator: op } },
    );
  }
  return words;
}
