package dev.baton.application.service.worker.archfixture;

/** Broken on purpose: a background loop reaching into the fetcher, which calls the loops, not the other way round. */
public class ReclaimingLoop {
    Fetcher fetcher;
}
