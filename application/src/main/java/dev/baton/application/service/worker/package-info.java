/**
 * The worker, in rooms: one class per job of leasing, holding, running, finishing and acknowledging deliveries, and one
 * per background loop. Only its entry points are public; the rooms are package-private. It reaches the transport only
 * through {@code JobLeases} and {@code QueueMaintenance}, and its loops never depend on the fetcher.
 */
package dev.baton.application.service.worker;
