export { monthEnd, plusDays, weekdayBars } from './mini-observations.ts';
export {
  createScaledClock,
  createVirtualClock,
  type MockFredSeries,
  manyVintageSeries,
  maxInWindow,
  startMockFredServer,
} from './mock-fred-server.ts';
export { runnerFixtureObservations, writeRunnerFixture } from './runner-fixture.ts';
export { rawFile, updateContext } from './update-context.ts';
export {
  type MiniObservation,
  type MiniSeries,
  writeMiniUniverse,
  writeUniverseManifest,
} from './write-mini-universe.ts';
export {
  QUESTIONS_FIXTURE,
  QUESTIONS_FIXTURE_ANSWERS_CSV,
  writeQuestionsFixture,
} from './write-questions-fixture.ts';
export { type InjectedChanges, writeSyntheticRawUniverse } from './write-synthetic-raw-universe.ts';
