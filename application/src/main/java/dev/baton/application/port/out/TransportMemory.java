package dev.baton.application.port.out;

/**
 * Tells when the transport may have forgotten jobs published to it. Implementations translate their client's
 * exceptions into {@link TransportException}.
 */
public interface TransportMemory {

    /**
     * An identity of what the transport remembers now. It stays the same while the transport keeps its data, and
     * changes whenever it may have lost some: a restart without persistence, a flush, a failover to another server.
     */
    String epoch();
}
