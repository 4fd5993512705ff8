/**
 * The environment variable naming the file the suites write their skip reasons to: the skip
 * reporter sets it before the workers start (a module of its own: the reporter runs outside them
 * and cannot import vitest's test API).
 */
export const SKIP_LOG = 'CV_TEST_SKIP_LOG';
