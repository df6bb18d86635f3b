package dev.baton.application.service.worker;

/**
 * One of a worker's background loops: {@link Loops} runs {@link #runOnce()} at a fixed delay, and tests call it
 * directly, one pass at a time, and assert on what it returns.
 *
 * @param <R> what a pass did: a small record, for the loop's log line and for the tests
 */
interface BackgroundLoop<R> {

    /** One pass. A failure ends this pass only: the scheduler logs it and runs the next pass as planned. */
    R runOnce();
}
