// The server test files CI runs in a step of their own, one file at a time (scripts/test-ci.mjs,
// docs/decisions/038-ci-time.md): the fault tests (a server SIGKILLed mid-burst, PostgreSQL stopped
// for 30 s, connections cut) and the export memory measurement. vitest.config.ts leaves them out of
// a run started with TEST_RUN_APART=1.
export const RUN_APART = ['server/faults/', 'server/routes/csv-export-memory.test.ts'];
