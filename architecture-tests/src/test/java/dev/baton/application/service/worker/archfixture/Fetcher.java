package dev.baton.application.service.worker.archfixture;

/** Stands in for the worker's (package-private) fetcher in {@link ReclaimingLoop}. */
public class Fetcher {
}
