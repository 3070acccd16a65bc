import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// The first visit of a lazy view transforms its module: under a loaded machine that can take over a second.
configure({ asyncUtilTimeout: 5_000 });

// Testing Library cleans up by itself only with vitest globals, which this project does not enable.
afterEach(() => cleanup());
