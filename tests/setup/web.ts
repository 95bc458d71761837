import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy… and waitFor wait up to 5 s, not testing-library's 1 s: on a shared CI machine at load 10+
// a screen's first query (a fetch answered by the test's own handler) can take longer than 1 s, and
// a check that passes on a quiet machine must not fail there (CI saw the Issue Reward form's
// category list still showing its defaults at 1 s).
configure({ asyncUtilTimeout: 5_000 });

// jsdom has no scrolling; the router's scroll restoration calls it.
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  localStorage.clear();
});
