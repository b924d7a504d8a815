/**
 * @asof/test-kit: test fixtures that several packages' tests and the end-to-end tests in tests/ share: a
 * hand-made universe folder (writeMiniUniverse), the runner's small split universe (writeRunnerFixture), a
 * FRED/ALFRED look-alike server on 127.0.0.1 with its clocks (startMockFredServer), and a raw-file universe
 * at two dates for the update and diff tests (writeSyntheticRawUniverse). They used to live in the library
 * packages' src/ (split, source-fred, runner, cli), which shipped them to every importer and into the CLI
 * bundle. Here no library depends on them: only tests, benches and scripts import this package, each
 * package through its devDependencies, and tests/dependency-direction.test.ts fails if a library's
 * non-test source (or bin/) imports it or lists it in `dependencies` (issue 50).
 */
export * from './mini-observations.ts';
export * from './mock-fred-server.ts';
export * from './runner-fixture.ts';
export * from './write-mini-universe.ts';
export * from './write-synthetic-raw-universe.ts';
