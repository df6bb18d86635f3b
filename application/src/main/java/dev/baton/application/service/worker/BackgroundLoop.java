package dev.baton.application.service.worker;

/**
 * One of a worker's background loops: {@link Loops} runs {@link #runOnce()} at a fixed delay, and tests call it
 * directly, one pass at a time.
 */
interface BackgroundLoop {

    /** One pass. A failure ends this pass only: the scheduler logs it and runs the next pass as planned. */
    void runOnce();
}
