package dev.baton.application.service.worker.archfixture;

/** Broken on purpose: a room of the worker is package-private; only WorkerService and WorkerSettings are public. */
public class PublicRoom {
}
