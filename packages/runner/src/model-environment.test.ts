import { describe, expect, it } from 'vitest';
import { checkEnvAllow, modelEnvironment, modelLogScrubber } from './model-environment.ts';

const userEnv = {
  PATH: '/usr/bin',
  HOME: '/home/u',
  LC_ALL: 'C.UTF-8',
  VIRTUAL_ENV: '/venv',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  ASOF_FRED_API_KEY: 'secretkeymarker9876543210qwertyu',
  ASOF_SEC_USER_AGENT: 'Rel3Tester uamarker77@example.org',
  ASOF_STATE_DIR: '/state',
  MY_MODEL_HOME: '/m',
  MY_MODEL_SEED: '7',
};

describe('modelEnvironment (issue 52 item 3)', () => {
  it('passes the default list only: no ASOF_* variable, no other secret', () => {
    expect(modelEnvironment(userEnv)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      LC_ALL: 'C.UTF-8',
      VIRTUAL_ENV: '/venv',
    });
  });

  it('adds what --env names, and an ASOF_* variable only by its own name or an ASOF_ prefix', () => {
    const env = modelEnvironment(userEnv, ['MY_MODEL_*', 'A*', 'ASOF_STATE_DIR']);
    expect(Object.keys(env).sort()).toEqual([
      'ASOF_STATE_DIR',
      'AWS_SECRET_ACCESS_KEY',
      'HOME',
      'LC_ALL',
      'MY_MODEL_HOME',
      'MY_MODEL_SEED',
      'PATH',
      'VIRTUAL_ENV',
    ]);
    expect(Object.keys(modelEnvironment(userEnv, ['ASOF_SEC_*']))).toContain('ASOF_SEC_USER_AGENT');
  });

  it('refuses an --env value that is not a name or a prefix', () => {
    expect(() => checkEnvAllow(['A=B'])).toThrow(/--env "A=B": expected a variable name/);
    expect(() => checkEnvAllow(['*'])).toThrow(/--env/);
    expect(() => checkEnvAllow(['OK_NAME', 'PRE_*'])).not.toThrow();
  });

  it('scrubs asof’s secrets from a model’s stderr line in any case and encoding, and nothing else', () => {
    const scrub = modelLogScrubber(userEnv);
    expect(scrub('k=SECRETKEYMARKER9876543210QWERTYU ua=Rel3Tester%20uamarker77%40example.org')).toBe(
      'k=*** ua=***',
    );
    expect(scrub('/state and /m stay')).toBe('/state and /m stay');
    expect(modelLogScrubber({ PATH: '/x' })('unchanged')).toBe('unchanged');
  });
});
