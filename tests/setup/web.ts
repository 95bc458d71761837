import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom has no scrolling; the router's scroll restoration calls it.
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  localStorage.clear();
});
